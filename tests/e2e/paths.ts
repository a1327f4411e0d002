import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const EXTENSION_DIR = `${ROOT}.output/chrome-mv3`;
export const FIXTURE_PAGES = `${ROOT}tests/fixtures/pages`;
