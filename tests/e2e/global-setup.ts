import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { EXTENSION_DIR } from './paths';

/** Builds the Chrome extension once per run, unless the caller (npm test) has just built it. */
export default function globalSetup(): void {
  if (process.env.E2E_REUSE_BUILD === '1' && existsSync(`${EXTENSION_DIR}/manifest.json`)) return;
  execFileSync('npx', ['wxt', 'build'], { stdio: 'inherit' });
}
