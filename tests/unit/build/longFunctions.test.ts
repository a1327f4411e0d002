/**
 * Smaller pieces: eslint.config.js fails a product function over 80 lines (`max-lines-per-function`)
 * and a test file over 600 (`max-lines`). A function may stay long only where its disable comment
 * says why, after ESLint's ` -- ` separator. This checks both the rule and the reasons.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
// @ts-expect-error: the plain JS config, typed by its JSDoc only.
import config from '../../../eslint.config.js';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const PRODUCT = ['lib', 'components', 'entrypoints'];
const SOURCE = /\.(ts|tsx)$/;
const EXEMPTION = /eslint-disable(?:-next-line)?\s+max-lines-per-function(.*)$/;

function* files(folder: string): Generator<string> {
  for (const name of readdirSync(folder)) {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (SOURCE.test(name)) yield full;
  }
}

/** Every exemption from the 80-line rule, with the reason it gives (empty when none). */
function exemptions(): { where: string; why: string }[] {
  const found: { where: string; why: string }[] = [];
  for (const folder of PRODUCT)
    for (const file of files(path.join(ROOT, folder)))
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          const match = EXEMPTION.exec(line);
          if (!match) return;
          const after = match[1].split(' -- ')[1] ?? '';
          const why = after.replace('*/', '').trim();
          found.push({ where: `${path.relative(ROOT, file)}:${index + 1}`, why });
        });
  return found;
}

/** The project's own entries that set the two size rules (their files and options), without type-aware linting. */
const sizeRules = (config as Linter.Config[]).filter(
  (entry) => entry.rules && ('max-lines-per-function' in entry.rules || 'max-lines' in entry.rules),
);

function lint(file: string, text: string) {
  const linter = new Linter({ cwd: ROOT, configType: 'flat' });
  const parser = { files: ['**/*.ts', '**/*.tsx'], languageOptions: { parser: tseslint.parser } };
  return linter
    .verify(text, [parser, ...sizeRules], { filename: path.join(ROOT, file) })
    .map((m) => m.ruleId);
}

/** A function of exactly `lines` lines, its signature and closing brace included. */
const functionOf = (lines: number) =>
  `export function long(): number {\n  let total = 0;\n${'  total += 1;\n'.repeat(lines - 4)}  return total;\n}\n`;

describe('smaller pieces', () => {
  it('every product function allowed over 80 lines says why, in words', () => {
    const unexplained = exemptions().filter(({ why }) => why.split(/\s+/).filter(Boolean).length < 4);
    expect(unexplained).toEqual([]);
  });

  it('fails a product function over 80 lines and passes one of 80', () => {
    expect(lint('lib/digest-long.ts', functionOf(81))).toContain('max-lines-per-function');
    expect(lint('lib/digest-long.ts', functionOf(80))).not.toContain('max-lines-per-function');
  });

  it('fails a test file over 600 lines', () => {
    const body = `export const lines = [\n${'  1,\n'.repeat(600)}];\n`;
    expect(lint('tests/unit/build/too-long.test.ts', body)).toContain('max-lines');
  });
});
