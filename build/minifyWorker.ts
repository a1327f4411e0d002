import type { Plugin } from 'vite';

/**
 * The service worker's bundle, minified a second time by terser after Vite's own esbuild pass:
 * terser's compressor (two passes, its default safe options: no `unsafe*`, function arity and
 * names kept as esbuild left them) folds what esbuild leaves, ≈6 KB gzip of the worker's ≈135.
 * Only the worker, which loads its one file on every wake and cannot load code later (an MV3
 * service worker has no `import()`); the pages split and load lazily, and terser would add half
 * a minute to every build for each of them.
 */
export const WORKER_FILE = 'background.js';

export const TERSER_OPTIONS = {
  ecma: 2020,
  // A classic script: an IIFE that assigns one global (WXT's `var background = …`), kept.
  module: false,
  toplevel: false,
  compress: { passes: 2 },
  mangle: true,
  format: { comments: false },
} as const;

/** `code` as terser minifies it (and its source map when one is asked for). */
export async function minifyWorkerChunk(code: string, sourceMap: boolean) {
  const { minify } = await import('terser');
  const result = await minify(code, {
    ...TERSER_OPTIONS,
    compress: { ...TERSER_OPTIONS.compress },
    format: { ...TERSER_OPTIONS.format },
    sourceMap: sourceMap ? { asObject: true } : false,
  });
  if (result.code === undefined) throw new Error('terser returned no code');
  return { code: result.code, map: sourceMap ? (result.map as never) : null };
}

export function minifyWorker(fileNames: readonly string[] = [WORKER_FILE]): Plugin {
  let minifying = true;
  return {
    name: 'playbook-companion:minify-worker',
    apply: 'build',
    configResolved(config) {
      // `minify: false` (a debugging build) stays readable.
      minifying = config.build.minify !== false;
    },
    renderChunk: {
      // After Vite's esbuild minification, which runs in renderChunk too.
      order: 'post',
      async handler(code, chunk, options) {
        if (!minifying || !fileNames.includes(chunk.fileName)) return null;
        return minifyWorkerChunk(code, Boolean(options.sourcemap));
      },
    },
  };
}
