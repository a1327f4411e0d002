/**
 * Every word the pages show is translated (locales/*.yml) or the service's own: its case is the
 * translator's or the author's. `text-transform` would rewrite it by the rules of one language ("Nicht
 * Gelistet" from German "nicht gelistet"), so no stylesheet of the extension may change case.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const FOLDERS = ['components', 'entrypoints', 'lib'];

function cssFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.css'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** `text-transform` declarations that change case (anything but `none`), with their line numbers. */
function caseChanges(css: string): { line: number; value: string }[] {
  const found: { line: number; value: string }[] = [];
  const withoutComments = css.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '));
  withoutComments.split('\n').forEach((text, index) => {
    for (const match of text.matchAll(/text-transform\s*:\s*([^;}]+)/g)) {
      const value = match[1].trim();
      if (value !== 'none' && value !== 'inherit' && value !== 'initial' && value !== 'unset')
        found.push({ line: index + 1, value });
    }
  });
  return found;
}

describe('stylesheets leave the case of translated text alone', () => {
  it('finds a case change, and only that', () => {
    expect(caseChanges('.a { text-transform: capitalize; }\n.b {\n  text-transform:uppercase }')).toEqual([
      { line: 1, value: 'capitalize' },
      { line: 3, value: 'uppercase' },
    ]);
    expect(caseChanges('.a { text-transform: none; }\n/* text-transform: capitalize */')).toEqual([]);
  });

  it('no stylesheet of the extension changes case', () => {
    const files = FOLDERS.flatMap((folder) => cssFiles(join(ROOT, folder)));
    expect(files.length).toBeGreaterThan(3);
    const offenders = files.flatMap((file) =>
      caseChanges(readFileSync(file, 'utf8')).map(
        ({ line, value }) => `${relative(ROOT, file)}:${line} text-transform: ${value}`,
      ),
    );
    expect(offenders).toEqual([]);
  });
});
