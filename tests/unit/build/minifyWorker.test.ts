import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { RenderedChunk } from 'rollup';
import { minifyWorker, minifyWorkerChunk, WORKER_FILE } from '../../../build/minifyWorker';

/** What esbuild leaves and terser folds: a constant condition, a call of a one-use helper. */
const WORKER = `var background=(function(){"use strict";const n=2;function t(e){return e*n}function r(e){if(n>1)return t(e)+1;return 0}return{answer:r(20)}})();`;

type Handler = (code: string, chunk: RenderedChunk, options: { sourcemap: boolean }) => Promise<unknown>;

/** The plugin's renderChunk, after Vite resolved a build with `minify`. */
function renderChunk(minify: boolean | 'esbuild'): Handler {
  const plugin = minifyWorker();
  (plugin.configResolved as (config: unknown) => void)({ build: { minify } });
  return (plugin.renderChunk as unknown as { handler: Handler }).handler;
}

/** Runs a classic IIFE script and returns the global it assigns. */
function run(code: string): unknown {
  return runInNewContext(`${code};background`) as unknown;
}

describe("terser over the service worker's file", () => {
  it('folds what esbuild leaves, and the script still assigns the same value', async () => {
    const { code } = await minifyWorkerChunk(WORKER, false);
    expect(code.length).toBeLessThan(WORKER.length);
    expect(code).toMatch(/^var background=/);
    expect(run(code)).toEqual(run(WORKER));
  });

  it('runs after esbuild and only on the worker file, and not when the build asks for no minifying', async () => {
    const plugin = minifyWorker();
    expect((plugin.renderChunk as { order?: string }).order).toBe('post');
    const chunk = (fileName: string) => ({ fileName }) as RenderedChunk;
    const handler = renderChunk('esbuild');
    expect(await handler(WORKER, chunk(WORKER_FILE), { sourcemap: false })).toMatchObject({ map: null });
    expect(await handler(WORKER, chunk('chunks/popup-abc.js'), { sourcemap: false })).toBeNull();
    expect(await renderChunk(false)(WORKER, chunk(WORKER_FILE), { sourcemap: false })).toBeNull();
  });

  it('hands on a source map when the build writes them', async () => {
    const { map } = await minifyWorkerChunk(WORKER, true);
    expect(map).toMatchObject({ version: 3 });
  });
});
