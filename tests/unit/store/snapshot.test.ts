import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { database } from '@/lib/store/db';
import { DATABASE_NAME } from '@/lib/store/inventory';
import {
  clearPopupSnapshot,
  readCachedView,
  readCachedViewOnce,
  readKey,
  readPopupSnapshot,
  readPopupSnapshotOnce,
  snapshotBinding,
  snapshotGeneration,
  writeCachedView,
  writePopupSnapshot,
  type PopupSnapshot,
} from '@/lib/store/snapshot';

const snapshot: PopupSnapshot = {
  binding: snapshotBinding('http://127.0.0.1:8787', '0123456789abcdef'),
  state: {
    version: '0.1.0',
    settings: { serviceUrl: 'http://127.0.0.1:8787', apiUrl: 'http://127.0.0.1:8787/api/v1', pollMinutes: 5 },
    key: { set: true, savedAt: Date.UTC(2026, 10, 2, 9, 30) },
    hostAccess: { missingOrigins: [] },
  },
  page: { items: [], nextCursor: null, hasMore: false, source: 'network', fetchedAt: 1 },
  outbox: [],
  savedAt: 1,
};

/** What a read gives back: the page comes from the cache. */
const readBack = { ...snapshot, page: { ...snapshot.page, source: 'cache' } };

describe('popup snapshot', () => {
  beforeEach(() => clearPopupSnapshot());

  it('reads back what the worker wrote, and nothing once cleared', async () => {
    await writePopupSnapshot(snapshot, snapshotGeneration());
    expect(await readPopupSnapshot()).toEqual(readBack);
    await clearPopupSnapshot();
    expect(await readPopupSnapshot()).toBeUndefined();
  });

  it('the popup reads it on a connection of its own, closed after the read', async () => {
    await writePopupSnapshot(snapshot, snapshotGeneration());
    expect(await readPopupSnapshotOnce()).toEqual(readBack);
    // Nothing left open blocks an upgrade (the worker's connection steps aside by itself).
    const db = await database();
    const upgraded = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(DATABASE_NAME, db.version + 1);
      request.onblocked = () => reject(new Error('blocked by an open connection'));
      request.onsuccess = () => resolve(request.result);
    });
    upgraded.close();
    await new Promise((resolve) => (indexedDB.deleteDatabase(DATABASE_NAME).onsuccess = resolve));
  });

  it('the popup never creates the database: before the worker made it there is nothing to read', async () => {
    await new Promise((resolve) => (indexedDB.deleteDatabase(DATABASE_NAME).onsuccess = resolve));
    expect(await readPopupSnapshotOnce()).toBeUndefined();
    const names = (await indexedDB.databases()).map((info) => info.name);
    expect(names).not.toContain(DATABASE_NAME);
  });

  it('drops a record of another shape instead of trusting it', async () => {
    await (await database()).put('snapshot', { binding: 'x', page: { items: 'nope' } }, 'popup');
    expect(await readPopupSnapshot()).toBeUndefined();
  });

  it('drops a record with any row the popup cannot draw, however far down the page it is', async () => {
    const row = {
      id: 'p',
      title: 'T',
      visibility: 'private',
      status: 'draft',
      tickers: ['ABC'],
      updated_at: '2026-01-01T00:00:00Z',
    };
    const items = Array.from({ length: 20 }, (_, index) => ({ ...row, id: `p${index}` }));
    const withPage = (rows: unknown[]) => ({ ...snapshot, page: { ...snapshot.page, items: rows } });
    await writePopupSnapshot(withPage(items) as PopupSnapshot, snapshotGeneration());
    expect((await readPopupSnapshotOnce())?.page?.items).toHaveLength(20);
    const odd = items.map((item, index) => (index === 15 ? { ...item, tickers: undefined } : item));
    await writePopupSnapshot(withPage(odd) as PopupSnapshot, snapshotGeneration());
    // The popup's record still paints its state; the page it cannot draw is not offered.
    expect((await readPopupSnapshotOnce())?.page).toBeUndefined();
    expect((await readPopupSnapshot())?.page).toBeUndefined();
  });

  it('binds to the service and the key: another of either is another binding', () => {
    const one = snapshotBinding('http://a', 'f1');
    expect(snapshotBinding('http://b', 'f1')).not.toBe(one);
    expect(snapshotBinding('http://a', 'f2')).not.toBe(one);
    expect(snapshotBinding('http://a', undefined)).not.toBe(one);
  });

  it('has one key per view: scope and visibility, and the popup apart', () => {
    const keys = [
      readKey('popup'),
      readKey({ scope: 'mine' }),
      readKey({ scope: 'mine', visibility: 'private' }),
      readKey({ scope: 'public' }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe("the read model's cache: one store, written only when what it holds changed", () => {
  beforeEach(() => clearPopupSnapshot());
  const binding = snapshot.binding;
  const row = {
    id: 'p1',
    title: 'Tracked',
    visibility: 'private' as const,
    status: 'draft',
    tickers: ['ABC'],
    updated_at: '2026-01-01T00:00:00Z',
  };
  const page = { items: [row], nextCursor: 'c2', hasMore: true, source: 'network' as const, fetchedAt: 5 };

  it("holds the popup's first page once: the record of its view, which another view's read also finds", async () => {
    await writePopupSnapshot({ ...snapshot, page: page as never }, snapshotGeneration());
    const cached = await readCachedView({ scope: 'mine' }, binding);
    expect(cached).toMatchObject({ items: [row], nextCursor: 'c2', source: 'cache', fetchedAt: 5 });
    expect(await readCachedViewOnce({ scope: 'mine' }, binding)).toEqual(cached);
    // No second copy under the popup's record.
    expect(await (await database()).get('snapshot', readKey('popup'))).not.toHaveProperty('page');
  });

  it('shows a view only to the service and key it was read for', async () => {
    await writeCachedView({ scope: 'public' }, binding, page as never, snapshotGeneration());
    expect(await readCachedView({ scope: 'public' }, binding)).toBeDefined();
    expect(await readCachedView({ scope: 'public' }, snapshotBinding('http://other', 'f'))).toBeUndefined();
    expect(await readCachedView({ scope: 'mine' }, binding)).toBeUndefined();
  });

  it('does not rewrite a view or the popup record when a revalidation brings the same back', async () => {
    const readAt = snapshotGeneration();
    expect(await writeCachedView({ scope: 'mine' }, binding, page as never, readAt)).toBe(true);
    // The same rows, read later: nothing written (the time stays in the worker's memory).
    expect(
      await writeCachedView({ scope: 'mine' }, binding, { ...page, fetchedAt: 9 } as never, readAt),
    ).toBe(false);
    expect((await readCachedView({ scope: 'mine' }, binding))?.fetchedAt).toBe(5);
    const changed = { ...page, items: [{ ...row, title: 'Renamed' }], fetchedAt: 10 };
    expect(await writeCachedView({ scope: 'mine' }, binding, changed as never, readAt)).toBe(true);

    const { page: _page, ...record } = snapshot;
    expect(await writePopupSnapshot(record, readAt)).toBe(true);
    expect(await writePopupSnapshot({ ...record, savedAt: 99 }, readAt)).toBe(false);
    const limits = { remaining: 5, limit: 10, resetAt: 1 } as never;
    expect(
      await writePopupSnapshot(
        { ...record, overview: { deprecations: [], rateLimit: limits }, savedAt: 100 },
        readAt,
      ),
    ).toBe(true);
    // Only the rate limits moved (they change with every request): not worth a write.
    const later = { remaining: 4, limit: 10, resetAt: 2 } as never;
    expect(
      await writePopupSnapshot(
        { ...record, overview: { deprecations: [], rateLimit: later }, savedAt: 101 },
        readAt,
      ),
    ).toBe(false);
    expect(await writePopupSnapshot({ ...record, outbox: [{ id: 'd' } as never] }, readAt)).toBe(true);
  });

  it('writes nothing read before a clear', async () => {
    const readAt = snapshotGeneration();
    await clearPopupSnapshot();
    expect(await writeCachedView({ scope: 'mine' }, binding, page as never, readAt)).toBe(false);
    expect(await readCachedView({ scope: 'mine' }, binding)).toBeUndefined();
  });
});
