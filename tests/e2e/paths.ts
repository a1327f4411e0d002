import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Where the Chrome build is; WXT_OUT_DIR moves it so parallel runs do not share one build. */
export const OUTPUT_DIR = `${ROOT}${process.env.WXT_OUT_DIR ?? '.output'}`;
export const EXTENSION_DIR = `${OUTPUT_DIR}/chrome-mv3`;
export const FIXTURE_PAGES = `${ROOT}tests/fixtures/pages`;
