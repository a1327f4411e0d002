import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface BundleFigure {
  entrypoint: string;
  files: number;
  rawBytes: number;
  gzipBytes: number;
  budgetGzipBytes?: number;
}

const IMPORT =
  /(?:import|export)(?:[^'"`;]*?from)?\s*["']([^"']+\.js)["']|import\(\s*["']([^"']+\.js)["']\s*\)/g;
const HTML_ASSET = /<(?:script[^>]*\ssrc|link[^>]*\shref)="([^"]+\.(?:js|css))"/g;

/** Every file an entrypoint loads: the file itself plus its static and dynamic imports, transitively. */
function closure(root: string, start: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    if (!file.endsWith('.js')) continue;
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2];
      queue.push(spec.startsWith('/') ? join(root, spec) : normalize(join(dirname(file), spec)));
    }
  }
  return seen;
}

function entryFiles(root: string, entrypoint: string): string[] {
  const html = join(root, `${entrypoint}.html`);
  if (existsSync(html)) {
    const text = readFileSync(html, 'utf8');
    return [...text.matchAll(HTML_ASSET)].map((m) =>
      m[1].startsWith('/') ? join(root, m[1]) : join(root, m[1]),
    );
  }
  return [join(root, `${entrypoint}.js`), join(root, `${entrypoint}.css`)].filter((file) => existsSync(file));
}

export function measureBundles(root: string, budgets: Record<string, number>): BundleFigure[] {
  const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')) as {
    content_scripts?: { js?: string[] }[];
  };
  const entrypoints = ['background', 'popup', 'options', 'sidepanel', 'confirm'];
  for (const script of manifest.content_scripts ?? [])
    for (const js of script.js ?? []) entrypoints.push(js.replace(/\.js$/, ''));
  return entrypoints
    .filter((entrypoint) => entryFiles(root, entrypoint).length > 0)
    .map((entrypoint) => {
      const files = closure(root, entryFiles(root, entrypoint));
      let rawBytes = 0;
      let gzipBytes = 0;
      for (const file of files) {
        const bytes = readFileSync(file);
        rawBytes += bytes.length;
        gzipBytes += gzipSync(bytes, { level: 9 }).length;
      }
      return { entrypoint, files: files.size, rawBytes, gzipBytes, budgetGzipBytes: budgets[entrypoint] };
    });
}
