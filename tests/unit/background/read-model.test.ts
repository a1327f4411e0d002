import 'fake-indexeddb/auto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import type { HandlerRegistry } from '@/lib/messaging';
import type { PlaybookPage, PopupOpened } from '@/lib/messaging/protocol';
import { storeApiKey } from '@/lib/store/apiKey';
import { DEFAULT_SETTINGS, saveSettings } from '@/lib/store/settings';
import { clearPopupSnapshot, readPopupSnapshot } from '@/lib/store/snapshot';
import { playbook } from '../pages/popup/fixtures';
import { OPTIONS_PAGE, workerRegistry } from './registry';

/** The service seam: what each list read answers (rows, or an error), and what was asked. */
const seam = vi.hoisted(() => ({
  answer: (_query: unknown): unknown => ({ items: [], nextCursor: null, hasMore: false }),
  asked: [] as Array<{ operationId: string; query: unknown }>,
}));

vi.mock('@/lib/api/service', async () => {
  const { clearPopupSnapshot: clearSnapshot } = await import('@/lib/store/snapshot');
  return {
    serviceClient: () =>
      Promise.resolve({
        listPage: (operationId: string, { query }: { query: unknown }) => {
          seam.asked.push({ operationId, query });
          return Promise.resolve().then(() => seam.answer(query));
        },
        call: () => Promise.resolve({ data: { status: 'operational', components: [], updated_at: 'x' } }),
        deprecations: () => [],
        rateLimitState: () => undefined,
      }),
    discover: () => Promise.reject(new Error('no discovery in this test')),
    lastDiscoveryReport: () => Promise.resolve(null),
    forgetService: () => clearSnapshot(),
  };
});

let registry: HandlerRegistry;

function ask<T>(type: string, payload: unknown): Promise<T> {
  return registry.dispatch({ type, payload }, OPTIONS_PAGE).then((envelope) => {
    if (!envelope.ok) throw new Error(JSON.stringify(envelope.error));
    return envelope.value as T;
  });
}

/** Counts the records put into the database from now on. */
function countPuts(): () => number {
  const put = vi.spyOn(IDBObjectStore.prototype, 'put');
  return () => put.mock.calls.length;
}

beforeEach(async () => {
  seam.asked.length = 0;
  seam.answer = () => ({ items: [playbook('a', 'Row')], nextCursor: 'c2', hasMore: true });
  await saveSettings(DEFAULT_SETTINGS);
  await storeApiKey('sk_live_read_model_1234');
  await clearPopupSnapshot();
  const worker = workerRegistry();
  registry = worker.registry;
  return worker.restoreLog;
});
afterEach(() => vi.restoreAllMocks());

describe('the read model answers each view with one message', () => {
  it('a scope, a filter and "Load more" each ask the service once, for that view', async () => {
    await ask('readView', { scope: 'public' });
    await ask('readView', { scope: 'mine', visibility: 'unlisted' });
    await ask('readView', { scope: 'mine', cursor: 'c2' });
    expect(seam.asked).toEqual([
      { operationId: 'listPublicPlaybooks', query: { cursor: undefined } },
      { operationId: 'listPlaybooks', query: { visibility: 'unlisted', cursor: undefined } },
      { operationId: 'listPlaybooks', query: { visibility: undefined, cursor: 'c2' } },
    ]);
  });

  it('a service that cannot be reached: the cached first page, with a typed staleness, not text', async () => {
    const fresh = await ask<PlaybookPage>('readView', { scope: 'public' });
    expect(fresh).toMatchObject({ source: 'network', items: [{ title: 'Row' }] });
    expect(fresh.stale).toBeUndefined();
    seam.answer = () => {
      throw new ApiError({ kind: 'network', operationId: 'listPublicPlaybooks', message: 'Offline.' });
    };
    const cached = await ask<PlaybookPage>('readView', { scope: 'public' });
    expect(cached).toMatchObject({ source: 'cache', items: [{ title: 'Row' }], nextCursor: 'c2' });
    expect(cached.stale).toEqual({ kind: 'failed', reason: 'Offline.', code: 'api.network' });
    // The time shown is when the service last confirmed these rows, kept in memory.
    expect(cached.fetchedAt).toBe(fresh.fetchedAt);
    // A refused document is no reason to hide the saved rows: they stay, with the typed reason.
    seam.answer = () => {
      throw new ApiError({ kind: 'document-refused', operationId: 'openapi', message: 'Refused.' });
    };
    const refused = await ask<PlaybookPage>('readView', { scope: 'public' });
    expect(refused).toMatchObject({ source: 'cache', items: [{ title: 'Row' }] });
    expect(refused.stale).toEqual({ kind: 'failed', reason: 'Refused.', code: 'api.document-refused' });
  });

  it('a refused key is not papered over with the cache', async () => {
    await ask('readView', { scope: 'mine' });
    seam.answer = () => {
      throw new ApiError({ kind: 'unauthorized', operationId: 'listPlaybooks', message: 'No.', status: 401 });
    };
    // Refused, rather than answered with the rows cached for the key before.
    await expect(ask('readView', { scope: 'mine' })).rejects.toThrow();
  });

  it('caches first pages only: "Load more" leaves the cache as it was', async () => {
    await ask('readView', { scope: 'mine' });
    const puts = countPuts();
    await ask('readView', { scope: 'mine', cursor: 'c2' });
    expect(puts()).toBe(0);
  });
});

describe('the read model writes only what changed', () => {
  it('a revalidation that brings the same page back writes nothing; a changed page is written', async () => {
    await ask('readView', { scope: 'mine', visibility: 'private' });
    const puts = countPuts();
    await ask('readView', { scope: 'mine', visibility: 'private' });
    expect(puts()).toBe(0);
    seam.answer = () => ({ items: [playbook('a', 'Renamed')], nextCursor: null, hasMore: false });
    await ask('readView', { scope: 'mine', visibility: 'private' });
    expect(puts()).toBe(1);
  });

  it('a popup opened again with nothing changed rewrites neither its record nor its page', async () => {
    const first = await ask<PopupOpened>('openPopup', {});
    expect(first.page?.items.map((item) => item.title)).toEqual(['Row']);
    expect((await readPopupSnapshot())?.page?.items).toHaveLength(1);
    const puts = countPuts();
    await ask('openPopup', {});
    expect(puts()).toBe(0);
  });

  it("the side panel's fresh list is the popup's next first page (one cache, not two)", async () => {
    await ask('openPopup', {});
    seam.answer = () => ({ items: [playbook('n', 'Newer')], nextCursor: null, hasMore: false });
    await ask('listPlaybooks', {});
    expect((await readPopupSnapshot())?.page?.items.map((item) => item.title)).toEqual(['Newer']);
  });
});

const ROOT = join(__dirname, '../../..');

function sources(...folders: string[]): string[] {
  return folders.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
      .map((entry) => relative(ROOT, join(entry.parentPath, entry.name))),
  );
}

/** The file without its comments, which may name what the code must not use. */
function code(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^[ \t]*\/\/.*$/gm, '');
}

const shipped = sources('lib', 'entrypoints', 'components');
const using = (pattern: RegExp) => shipped.filter((file) => pattern.test(code(file))).sort();

describe('one read model (by the code)', () => {
  it('has one writer of its cache: lib/background/readModel.ts', () => {
    expect(using(/\b(writePopupSnapshot|writeCachedView)\b/)).toEqual([
      'lib/background/readModel.ts',
      'lib/store/snapshot.ts',
    ]);
  });

  it('spells its keys in one function: no other file builds a cache key', () => {
    expect(using(/\breadKey\s*\(/).filter((file) => !file.startsWith('lib/background/readModel'))).toEqual([
      'lib/store/snapshot.ts',
    ]);
    expect(using(/listCacheKey|\|listPlaybooks\||view\|/)).toEqual(['lib/store/snapshot.ts']);
  });

  it("decides the popup's first frame in one place: start.tsx reads the snapshot, PopupPage never", () => {
    expect(using(/\breadPopupSnapshotOnce\b/)).toEqual([
      'entrypoints/popup/snapshotRead.ts',
      'lib/pages/popup/start.tsx',
      'lib/store/snapshot.ts',
    ]);
    expect(code('lib/pages/popup/PopupPage.tsx')).not.toMatch(
      /readPopupSnapshot|readCachedView|openDB|database\(/,
    );
  });

  it('has pages read staleness from its typed field, never from display text', () => {
    for (const file of sources('lib/pages'))
      expect(code(file), file).not.toMatch(/['"`]Refreshing|['"`]Cached\b|===\s*t\(/);
  });
});
