import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALARMS, DATABASE_STORES, STORAGE_ITEMS } from '@/lib/store/inventory';

const ROOT = join(__dirname, '../../..');

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

/** The file without its comments, which may name what the code must not use. */
function code(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^[ \t]*\/\/.*$/gm, '');
}

const shipped = ['lib', 'entrypoints', 'components'].flatMap(sourceFiles);
const SAVES =
  /browser\.storage|storage\.defineItem|defineAreaItem\b|alarms\.create|indexedDB|openDB\(|localStorage|sessionStorage/;

describe('the inventory of saved data is the one the code uses', () => {
  const savers = shipped.filter((file) => SAVES.test(code(file)));

  it('finds the code that saves (the scan itself works)', () => {
    expect(savers).toEqual(
      expect.arrayContaining(['lib/background/sites.ts', 'lib/pages/navigation.ts', 'lib/store/legacy.ts']),
    );
  });

  it.each(savers.filter((file) => !file.startsWith('lib/store/')))(
    '%s takes its keys or alarm names from the inventory',
    (file) => {
      const text = code(file);
      expect(text).toMatch(/from '@\/lib\/store\/inventory'/);
      // A key spelled in place would be saved without being listed.
      expect(text).not.toMatch(/defineItem<[^>]*>\(\s*(['"]|`(?!\$\{))/);
      expect(text).not.toMatch(/defineAreaItem(<[^>]*>)?\(\s*\{/);
      expect(text).not.toMatch(/alarms\.create\(\s*(['"]|`(?!\$\{))/);
    },
  );

  it('saves nothing in storage.sync, localStorage or sessionStorage', () => {
    for (const file of shipped)
      expect(code(file), file).not.toMatch(/storage\.sync|['"`]sync:|localStorage|sessionStorage/);
  });

  it('says why and who may read, for every item', () => {
    const items = [
      ...Object.values(DATABASE_STORES),
      ...Object.values(STORAGE_ITEMS),
      ...Object.values(ALARMS),
    ];
    for (const item of items) {
      expect(item.why.length).toBeGreaterThan(20);
      expect(item.readers.length).toBeGreaterThan(0);
    }
    // Only the offer's dismissals are meant for content scripts; everything else is out of their reach.
    const forContentScripts = Object.entries(STORAGE_ITEMS).filter(([, item]) =>
      (item.readers as readonly string[]).includes('content script'),
    );
    expect(forContentScripts.map(([name]) => name)).toEqual(['dismissedSites']);
  });
});
