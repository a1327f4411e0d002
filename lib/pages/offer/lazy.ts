import type { ExtensionApi } from './runtime';

/**
 * The function an extension file leaves in this isolated world (entrypoints/page-tickers.ts,
 * entrypoints/article-capture.ts), the file imported the first time it is needed. The files are
 * web-accessible with `use_dynamic_url` on Chromium (wxt.config.ts): their address holds an id
 * made anew every browser session, not the extension's id, so a page can neither probe for them
 * nor learn from them who we are. Imported by this script, they run in its isolated world.
 */
export async function loadInjected<F extends (...args: never[]) => unknown>(
  api: ExtensionApi,
  file: string,
  global: string,
): Promise<F> {
  const scope = globalThis as Record<string, unknown>;
  if (typeof scope[global] !== 'function') await import(/* @vite-ignore */ api.runtime.getURL(file as never));
  const loaded = scope[global];
  if (typeof loaded !== 'function') throw new Error(`${file} left no function`);
  return loaded as F;
}
