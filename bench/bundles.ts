import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

/** One file an entrypoint loads, its path relative to the extension folder. */
export interface BundleFile {
  fileName: string;
  rawBytes: number;
  gzipBytes: number;
}

export interface BundleFigure {
  entrypoint: string;
  files: number;
  rawBytes: number;
  gzipBytes: number;
  budgetGzipBytes?: number;
  /** What the bundle aims at, below its budget (bench/budgets.json `goalGzipBytes`). */
  goalGzipBytes?: number;
  /** Every file counted above, biggest (gzip) first. */
  fileFigures: BundleFile[];
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

export function measureBundles(
  root: string,
  budgets: Record<string, number>,
  goals: Record<string, number> = {},
): BundleFigure[] {
  const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')) as {
    content_scripts?: { js?: string[] }[];
  };
  const entrypoints = ['background', 'popup', 'options', 'sidepanel', 'confirm'];
  for (const script of manifest.content_scripts ?? [])
    for (const js of script.js ?? []) entrypoints.push(js.replace(/\.js$/, ''));
  return entrypoints
    .filter((entrypoint) => entryFiles(root, entrypoint).length > 0)
    .map((entrypoint) => {
      const fileFigures = [...closure(root, entryFiles(root, entrypoint))]
        .map((file) => {
          const bytes = readFileSync(file);
          const gzipBytes = gzipSync(bytes, { level: 9 }).length;
          return { fileName: relative(root, file), rawBytes: bytes.length, gzipBytes };
        })
        .sort((a, b) => b.gzipBytes - a.gzipBytes);
      return {
        entrypoint,
        files: fileFigures.length,
        rawBytes: fileFigures.reduce((sum, file) => sum + file.rawBytes, 0),
        gzipBytes: fileFigures.reduce((sum, file) => sum + file.gzipBytes, 0),
        budgetGzipBytes: budgets[entrypoint],
        goalGzipBytes: goals[entrypoint],
        fileFigures,
      };
    });
}
