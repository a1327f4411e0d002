import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { checkedKey, clearDiscoveryCache, idbDocumentCache } from '@/lib/discovery/cache';
import { getOpenApiDocument, runDiscovery } from '@/lib/discovery/run';
import { restoredReport, storableReport } from '@/lib/discovery/storedReport';
import { recordIdbWrites } from '../../fixtures/idbWrites';
import { BASE, FakeService, healthyDocuments } from './fakeService';

/** A clock the test moves by hand. */
function manualClock(start = Date.UTC(2026, 0, 2, 3, 4, 5)) {
  let t = start;
  const now = () => t;
  return Object.assign(now, { advance: (ms: number) => (t += ms) });
}

const run = (service: FakeService, now: () => number) =>
  runDiscovery({ baseUrl: `${BASE}/`, fetch: service.fetch, now });

/** Puts of a whole document (an object with a body) to the discovery store. */
const documentPuts = (writes: ReturnType<typeof recordIdbWrites>) =>
  writes.filter(
    (write) => write.store === 'discovery' && write.op === 'put' && typeof write.value === 'object',
  );

beforeEach(() => clearDiscoveryCache());

describe('discovery writes (a reopen replays every write)', () => {
  it('a warm run whose documents all answer 304 writes no document again, only their times', async () => {
    const service = new FakeService();
    const now = manualClock();
    await run(service, now);
    const writes = recordIdbWrites();
    now.advance(120_000);
    const warm = await run(service, now);
    expect(warm.steps.filter((step) => step.httpStatus === 304).length).toBeGreaterThan(10);
    expect(documentPuts(writes)).toEqual([]);
    const touched = writes.filter((write) => write.store === 'discovery' && write.op === 'put');
    expect(touched.length).toBeGreaterThan(10);
    expect(
      touched.every((write) => typeof write.value === 'number' && String(write.key).startsWith('checked ')),
    ).toBe(true);
  });

  it('a 304 still moves fetchedAt: the OpenAPI document is then served from the cache without a request', async () => {
    const service = new FakeService();
    const now = manualClock();
    await run(service, now);
    now.advance(600_000);
    await run(service, now);
    const url = `${BASE}/openapi.json`;
    expect((await idbDocumentCache.get(url))?.fetchedAt).toBe(now());
    now.advance(1_000);
    const requests = service.requests.length;
    const answer = await getOpenApiDocument(BASE, { fetch: service.fetch, now, maxAgeMs: 60_000 });
    expect(answer).toMatchObject({ source: 'cache', stale: false });
    expect(service.requests.length).toBe(requests);
  });

  it('the same bytes again from a server without ETags are a confirmation, not a rewrite', async () => {
    const documents = healthyDocuments();
    for (const document of Object.values(documents)) document.etag = null;
    const service = new FakeService(documents);
    const now = manualClock();
    await run(service, now);
    const writes = recordIdbWrites();
    now.advance(1_000);
    await run(service, now);
    expect(documentPuts(writes)).toEqual([]);
    expect((await idbDocumentCache.get(`${BASE}/llms.txt`))?.fetchedAt).toBe(now());
  });

  it('a changed document is written whole, and a later 304 does not bring the old time back', async () => {
    const documents = healthyDocuments();
    const service = new FakeService(documents);
    const now = manualClock();
    await run(service, now);
    now.advance(1_000);
    await run(service, now);
    documents['/auth.md'] = { body: '# Auth\n\nNew text.\n', contentType: 'text/markdown' };
    const writes = recordIdbWrites();
    now.advance(1_000);
    const changed = await run(service, now);
    expect(documentPuts(writes).map((write) => write.key)).toEqual([`${BASE}/auth.md`]);
    expect(changed.documents.markdownSources['/auth.md']?.text).toBe('# Auth\n\nNew text.\n');
    const cached = await idbDocumentCache.get(`${BASE}/auth.md`);
    expect(cached).toMatchObject({ body: '# Auth\n\nNew text.\n', fetchedAt: now() });
  });

  it('offline, a run still shows the cached documents, marked stale', async () => {
    const service = new FakeService();
    const now = manualClock();
    const cold = await run(service, now);
    now.advance(1_000);
    await run(service, now);
    service.offline = true;
    now.advance(1_000);
    const offline = await run(service, now);
    expect(offline.steps.find((step) => step.id === 'openapi')).toMatchObject({
      status: 'stale',
      source: 'cache',
    });
    expect(offline.documents.markdownSources).toEqual(cold.documents.markdownSources);
    expect(offline.documents.openapi).toEqual(cold.documents.openapi);
  });

  it('a touch record is not mistaken for a document, and clearing drops both', async () => {
    const url = `${BASE}/llms.txt`;
    const document = { url, etag: null, contentType: 'text/plain', body: 'x', fetchedAt: 1, size: 1 };
    await idbDocumentCache.touch(url, 5);
    expect(await idbDocumentCache.get(url)).toBeUndefined();
    await idbDocumentCache.set(document);
    expect((await idbDocumentCache.get(url))?.fetchedAt).toBe(5);
    await clearDiscoveryCache();
    expect(await idbDocumentCache.get(url)).toBeUndefined();
    await idbDocumentCache.set(document);
    expect((await idbDocumentCache.get(url))?.fetchedAt).toBe(1);
    expect(checkedKey(url)).not.toBe(url);
  });
});

describe('the stored discovery report', () => {
  it('names the cached OpenAPI document instead of carrying it, and reads back equal to the run', async () => {
    const service = new FakeService();
    const report = await run(service, manualClock());
    const stored = await storableReport(report);
    expect(stored.documents).not.toHaveProperty('openapi');
    expect(stored.openapiFrom?.url).toBe(`${BASE}/openapi.json`);
    expect(JSON.stringify(stored).length).toBeLessThan(JSON.stringify(report).length);
    expect(await restoredReport(stored)).toEqual(report);
    // Through structured clone, as the database stores it.
    expect(await restoredReport(structuredClone(stored))).toEqual(report);
  });

  it('keeps the document inline when the cache does not hold what the run read', async () => {
    const service = new FakeService();
    const report = await run(service, manualClock());
    await clearDiscoveryCache();
    const stored = await storableReport(report);
    expect(stored).toEqual(report);
    expect(await restoredReport(stored)).toEqual(report);
  });

  it('reads back without an OpenAPI document when the cached one was replaced since the run', async () => {
    const documents = healthyDocuments();
    const service = new FakeService(documents);
    const now = manualClock();
    const report = await run(service, now);
    const stored = await storableReport(report);
    documents['/openapi.json'] = {
      body: JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'Newer', version: '2' },
        servers: [{ url: '/v2' }],
        paths: {},
      }),
      contentType: 'application/json',
    };
    now.advance(120_000);
    await getOpenApiDocument(BASE, { fetch: service.fetch, now, maxAgeMs: 0 });
    const restored = await restoredReport(stored);
    expect(restored.documents.openapi).toBeUndefined();
    expect({ ...restored, documents: { ...restored.documents, openapi: report.documents.openapi } }).toEqual(
      report,
    );
  });
});

describe('the worker storing its report (lib/api/service.ts)', () => {
  it('stores the report without the OpenAPI document and serves it back as the run made it', async () => {
    const service = new FakeService();
    vi.stubGlobal('fetch', service.fetch);
    onTestFinished(() => {
      vi.unstubAllGlobals();
    });
    const { discover, lastDiscoveryReport } = await import('@/lib/api/service');
    const writes = recordIdbWrites();
    const report = await discover();
    const stored = writes.filter((write) => write.store === 'state' && write.key === 'discovery-report');
    expect(stored).toHaveLength(1);
    expect(stored[0]?.value).toMatchObject({
      documents: expect.not.objectContaining({ openapi: expect.anything() }),
    });
    expect(stored[0].chars).toBeLessThan(JSON.stringify(report).length);
    expect(report.documents.openapi).toBeDefined();
    expect(await lastDiscoveryReport()).toEqual(report);
    // The overview's read: the same report without the document, and the discovery cache not read.
    const reads = vi.spyOn(idbDocumentCache, 'get');
    const { openapi: _document, ...documents } = report.documents;
    expect(await lastDiscoveryReport({ openapi: false })).toEqual({ ...report, documents });
    expect(reads).not.toHaveBeenCalled();
  });
});
