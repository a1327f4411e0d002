import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { storeApiKey } from '@/lib/store/apiKey';
import { DEFAULT_SETTINGS, saveSettings } from '@/lib/store/settings';
import { clearState } from '@/lib/store/state';
import { bookIdDialectDocument } from './support';

/** The OpenAPI document discovery hands the service module, per step, and what reached the network. */
const seam = vi.hoisted((): { document: unknown; posts: string[] } => ({ document: undefined, posts: [] }));

vi.mock('@/lib/discovery', () => ({
  getOpenApiDocument: () =>
    Promise.resolve({ url: 'http://127.0.0.1:9/openapi.json', document: seam.document }),
  clearDiscoveryCache: () => Promise.resolve(),
  restoredReport: (report: unknown) => report,
  runDiscovery: () => Promise.reject(new Error('no discovery here')),
  storableReport: (report: unknown) => report,
}));

const { serviceClient, forgetService } = await import('@/lib/api/service');

/** The service's second dialect, then a later document that leaves the live writes out and puts the batch read on its route. */
function laterDocument() {
  const doc = bookIdDialectDocument();
  const paths = doc.paths as Record<string, Record<string, unknown>>;
  const batch = paths['/playbooks:batchGet'];
  delete paths['/playbooks:batchGet'];
  // Both live writes left out: no action word of this document names `live:start` any more.
  delete paths['/books/{bookId}/live:start'];
  delete paths['/books/{bookId}/live:stop'];
  // A public book's id the client has never seen, on an action word of this service's own.
  paths['/books/b_public/live:start'] = batch;
  return doc;
}

function serverUrlOf(doc: ReturnType<typeof bookIdDialectDocument>, url: string) {
  doc.servers = [{ url }];
  return doc;
}

beforeEach(async () => {
  fakeBrowser.reset();
  await forgetService();
  await clearState();
  seam.posts = [];
  const apiUrl = 'http://127.0.0.1:9/v1';
  await saveSettings({ ...DEFAULT_SETTINGS, serviceUrl: 'http://127.0.0.1:9', apiUrl });
  await storeApiKey('sk_live_write_routes_1234');
  vi.stubGlobal('fetch', (input: string | URL, init?: RequestInit) => {
    if (init?.method === 'POST') seam.posts.push(new URL(input).pathname);
    return Promise.resolve(
      new Response(JSON.stringify({ results: [] }), { headers: { 'content-type': 'application/json' } }),
    );
  });
  return () => vi.unstubAllGlobals();
});

describe('the route a write had in the last trusted document', () => {
  it('holds after a later document leaves the write out, across clients of the worker', async () => {
    seam.document = serverUrlOf(bookIdDialectDocument(), 'http://127.0.0.1:9/v1');
    await serviceClient(undefined, { fresh: true });
    seam.document = serverUrlOf(laterDocument(), 'http://127.0.0.1:9/v1');
    const later = await serviceClient(undefined, { fresh: true });
    const items = await later.batchGet(['pb_1']);
    expect(seam.posts).toEqual([]);
    expect(items[0]).toMatchObject({ status: 'failed', error: { kind: 'unconfirmed-write' } });
  });

  it('without the earlier document, the later one alone is not held by route (the shape rules are the rest)', async () => {
    seam.document = serverUrlOf(laterDocument(), 'http://127.0.0.1:9/v1');
    const client = await serviceClient(undefined, { fresh: true });
    await client.batchGet(['pb_1']);
    expect(seam.posts).toEqual(['/v1/books/b_public/live:start']);
  });
});
