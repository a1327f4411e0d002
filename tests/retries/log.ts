/**
 * The list of tests that passed only on retry. In CI each browser suite retries a failed test
 * once; a test that needed it is still a defect, so its name is appended here and `.ci/run`
 * prints the list at the end. Kept out of git (`*.log`).
 */
import { appendFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const RETRIED_LOG = resolve(import.meta.dirname, '../../retried-tests.log');

export function recordRetried(suite: string, names: readonly string[]): void {
  if (names.length === 0) return;
  appendFileSync(RETRIED_LOG, names.map((name) => `${suite}: ${name}\n`).join(''));
}
