import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** A saved finance page from tests/fixtures/finance, parsed the way a browser would. */
export function loadFixture(name: string): Document {
  // Vitest runs from the repository root; happy-dom rewrites import.meta.url, so it cannot anchor this.
  const path = resolve(process.cwd(), 'tests/fixtures/finance', name);
  return new DOMParser().parseFromString(readFileSync(path, 'utf8'), 'text/html');
}

/** A document built from markup written in the test itself. */
export function htmlDocument(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html');
}
