import { describe, expect, it } from 'vitest';
import type { CachedDocument, DocumentCache } from '@/lib/discovery/cache';
import { fetchDiscoveryDocument, type FetchLike } from '@/lib/discovery/fetchDocument';

const URL_ = 'http://127.0.0.1:8787/llms.txt';

function memoryCache(
  initial: CachedDocument[] = [],
  failWrites = false,
): DocumentCache & { entries: Map<string, CachedDocument> } {
  const entries = new Map(initial.map((d) => [d.url, d]));
  return {
    entries,
    get: (url) => Promise.resolve(entries.get(url)),
    set: (doc) =>
      failWrites ? Promise.reject(new Error('quota')) : (entries.set(doc.url, doc), Promise.resolve()),
    clear: () => (entries.clear(), Promise.resolve()),
  };
}

const deps = (fetch: FetchLike, cache = memoryCache(), extra = {}) => ({
  fetch,
  now: () => 1_000,
  cache,
  ...extra,
});

describe('fetchDiscoveryDocument', () => {
  it('refuses a body whose declared length is over the bound without reading it', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(10));
      },
    });
    const fetch: FetchLike = () =>
      Promise.resolve(new Response(body, { headers: { 'Content-Length': '5000000' } }));
    const result = await fetchDiscoveryDocument(
      URL_,
      'text/plain',
      deps(fetch, memoryCache(), { maxBytes: 1_000 }),
    );
    expect(result).toMatchObject({ status: 'invalid', body: null });
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it('stops reading an endless stream at the bound', async () => {
    const body = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new Uint8Array(512)),
    });
    const result = await fetchDiscoveryDocument(
      URL_,
      'text/plain',
      deps(() => Promise.resolve(new Response(body)), memoryCache(), { maxBytes: 4_096 }),
    );
    expect(result.status).toBe('invalid');
    expect(result.error).toMatch(/larger than 4096 bytes/);
  });

  it('times out a hanging server and says so', async () => {
    const hanging: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error)),
      );
    const result = await fetchDiscoveryDocument(
      URL_,
      'text/plain',
      deps(hanging, memoryCache(), { timeoutMs: 20 }),
    );
    expect(result).toMatchObject({ status: 'failed', error: 'Could not fetch the document (timed out).' });
  });

  it('still answers when the cache cannot be written', async () => {
    const result = await fetchDiscoveryDocument(
      URL_,
      'text/plain',
      deps(() => Promise.resolve(new Response('# A', { headers: { ETag: '"1"' } })), memoryCache([], true)),
    );
    expect(result).toMatchObject({ status: 'ok', body: '# A' });
  });

  it('keeps the bytes exactly, BOM included, so digests match what the server sent', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x23, 0x20, 0xc3, 0xa9]);
    const cache = memoryCache();
    const result = await fetchDiscoveryDocument(
      URL_,
      'text/plain',
      deps(() => Promise.resolve(new Response(new Blob([bytes]))), cache),
    );
    expect(Array.from(result.bytes ?? [])).toEqual(Array.from(bytes));
    expect(Array.from(new TextEncoder().encode(cache.entries.get(URL_)?.body))).toEqual(Array.from(bytes));
  });

  it('resolves against the final URL after a redirect', async () => {
    const redirected = new Response('# A');
    Object.defineProperty(redirected, 'url', { value: 'http://127.0.0.1:8787/docs/llms.txt' });
    const result = await fetchDiscoveryDocument(
      URL_,
      'text/plain',
      deps(() => Promise.resolve(redirected)),
    );
    expect(result.baseUrl).toBe('http://127.0.0.1:8787/docs/llms.txt');
  });
});
