import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUILD = `${ROOT}${process.env.WXT_OUT_DIR ?? '.output'}/firefox-mv2`;

/** Builds the Firefox extension once per run, unless the caller (npm test) has just built it. */
export default function globalSetup(): void {
  if (process.env.E2E_REUSE_BUILD === '1' && existsSync(`${BUILD}/manifest.json`)) return;
  execFileSync('npx', ['wxt', 'build', '-b', 'firefox'], { cwd: ROOT, stdio: 'inherit' });
}
