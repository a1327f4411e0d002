/**
 * What the service worker's bundle may not reach: code only a page runs. Walks the static value
 * imports (`import type` and `export type` bundle nothing) from entrypoints/background.ts through
 * our own sources; packages are not followed. The bundler keeps what a reached module's reached
 * functions use, so a page's DOM readers stay out only while no worker module imports their file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');

/** The module specifiers of a file's value imports and re-exports. */
function valueSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) => {
    const declaration =
      (ts.isImportDeclaration(statement) && !statement.importClause?.isTypeOnly) ||
      (ts.isExportDeclaration(statement) && !statement.isTypeOnly);
    const specifier = declaration ? statement.moduleSpecifier : undefined;
    return specifier && ts.isStringLiteral(specifier) ? [specifier.text] : [];
  });
}

function resolveSource(from: string, specifier: string): string | undefined {
  const base = specifier.startsWith('@/')
    ? join(ROOT, specifier.slice(2))
    : specifier.startsWith('.')
      ? resolve(dirname(from), specifier)
      : undefined;
  if (!base) return undefined;
  return [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find(
    (file) => /\.tsx?$/.test(file) && existsSync(file),
  );
}

/** Every source file reached from `entry` by value imports, relative to the project root. */
function reachedSources(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [join(ROOT, entry)];
  while (queue.length > 0) {
    const file = queue.pop()!;
    const name = relative(ROOT, file);
    if (seen.has(name)) continue;
    seen.add(name);
    for (const specifier of valueSpecifiers(file)) {
      const next = resolveSource(file, specifier);
      if (next) queue.push(next);
    }
  }
  return seen;
}

/** lib/finance's readers of a page's DOM: the offer, the capture script and the tickers page run them. */
const PAGE_ONLY = [
  'lib/finance/draft.ts',
  'lib/finance/tickers.ts',
  'lib/finance/blocks.ts',
  'lib/finance/article.ts',
];

describe("the service worker's import graph", () => {
  const reached = reachedSources('entrypoints/background.ts');

  it('is walked (it reaches the right-click draft and the MCP client)', () => {
    expect(reached).toContain('lib/background/contextMenus.ts');
    expect(reached).toContain('lib/finance/contextDraft.ts');
    expect(reached).toContain('lib/mcp/client.ts');
  });

  it.each(PAGE_ONLY)('leaves out %s', (file) => {
    expect(existsSync(join(ROOT, file))).toBe(true);
    expect(reached).not.toContain(file);
  });

  it('finds a page-only file when a worker module imports it (the walk can fail)', () => {
    expect(reachedSources('entrypoints/page-tickers.ts')).toContain('lib/finance/tickers.ts');
  });
});
