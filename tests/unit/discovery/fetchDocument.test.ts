import { describe, expect, it } from 'vitest';
import type { CachedDocument, DocumentCache } from '@/lib/discovery/cache';
import {
  fetchDiscoveryDocument,
  MAX_DOCUMENT_REDIRECTS,
  type FetchLike,
} from '@/lib/discovery/fetchDocument';

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
    touch: (url, fetchedAt) => {
      const doc = entries.get(url);
      if (failWrites) return Promise.reject(new Error('quota'));
      if (doc) entries.set(url, { ...doc, fetchedAt });
      return Promise.resolve();
    },
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

  describe('redirects: every hop passes the https-except-loopback rule', () => {
    /** A network that, like a browser, follows redirects itself unless asked for `manual`. */
    function network(routes: Record<string, () => Response>) {
      const hops: string[] = [];
      const fetch: FetchLike = (input, init) => {
        let url = input;
        // Browsers give up after 20 hops.
        for (let followed = 0; followed <= 20; followed++) {
          hops.push(url);
          const route = routes[url];
          const response = route ? route() : new Response('missing', { status: 404 });
          const location = response.headers.get('location');
          if (init?.redirect === 'manual' || !location || response.status < 300 || response.status > 399) {
            Object.defineProperty(response, 'url', { value: url });
            return Promise.resolve(response);
          }
          url = new URL(location, url).href;
        }
        return Promise.reject(new TypeError('Failed to fetch: too many redirects'));
      };
      return { fetch, hops };
    }
    const redirect =
      (to: string, status = 302) =>
      () =>
        new Response(null, { status, headers: { Location: to } });
    const HTTPS_DOC = 'https://agent.example/openapi.json';

    it('refuses an https → http hop on a remote host before making it', async () => {
      const { fetch, hops } = network({
        [HTTPS_DOC]: redirect('http://agent.example/openapi.json'),
        'http://agent.example/openapi.json': () => new Response('{"openapi":"3.1.0"}'),
      });
      const result = await fetchDiscoveryDocument(HTTPS_DOC, 'application/json', deps(fetch));
      expect(hops).toEqual([HTTPS_DOC]);
      expect(result.status).toBe('failed');
      expect(result.body).toBeNull();
      expect(result.error).toContain('http://agent.example');
    });

    it('refuses a plain-http hop in the middle of a chain that ends on https', async () => {
      const { fetch, hops } = network({
        [HTTPS_DOC]: redirect('http://mirror.example/a', 301),
        'http://mirror.example/a': redirect('https://cdn.example/openapi.json', 307),
        'https://cdn.example/openapi.json': () => new Response('{}'),
      });
      const result = await fetchDiscoveryDocument(HTTPS_DOC, 'application/json', deps(fetch));
      expect(hops).toEqual([HTTPS_DOC]);
      expect(result.body).toBeNull();
    });

    it('follows https and loopback hops, and resolves against the last one', async () => {
      const { fetch, hops } = network({
        [HTTPS_DOC]: redirect('https://cdn.example/v2/openapi.json', 308),
        'https://cdn.example/v2/openapi.json': () => new Response('{"ok":true}'),
      });
      const result = await fetchDiscoveryDocument(HTTPS_DOC, 'application/json', deps(fetch));
      expect(hops).toEqual([HTTPS_DOC, 'https://cdn.example/v2/openapi.json']);
      expect(result.status).toBe('ok');
      expect(result.baseUrl).toBe('https://cdn.example/v2/openapi.json');
    });

    it('stops a redirect loop after a bounded number of hops', async () => {
      const { fetch, hops } = network({
        [HTTPS_DOC]: redirect('https://agent.example/again'),
        'https://agent.example/again': redirect(HTTPS_DOC),
      });
      const result = await fetchDiscoveryDocument(
        HTTPS_DOC,
        'application/json',
        deps(fetch, memoryCache(), { timeoutMs: 60_000 }),
      );
      expect(result.status).toBe('failed');
      expect(hops.length).toBeLessThanOrEqual(MAX_DOCUMENT_REDIRECTS + 1);
    });

    it('does not follow a redirect the browser hides (opaqueredirect)', async () => {
      const opaque = new Response(null, { status: 200 });
      Object.defineProperty(opaque, 'type', { value: 'opaqueredirect' });
      const result = await fetchDiscoveryDocument(
        HTTPS_DOC,
        'application/json',
        deps(() => Promise.resolve(opaque)),
      );
      expect(result.status).toBe('failed');
      expect(result.body).toBeNull();
    });
  });
});
