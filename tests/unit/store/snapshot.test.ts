import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { database } from '@/lib/store/db';
import { DATABASE_NAME } from '@/lib/store/inventory';
import {
  clearPopupSnapshot,
  readPopupSnapshot,
  readPopupSnapshotOnce,
  snapshotBinding,
  snapshotGeneration,
  writePopupSnapshot,
  type PopupSnapshot,
} from '@/lib/store/snapshot';

const snapshot: PopupSnapshot = {
  binding: snapshotBinding('http://127.0.0.1:8787', '0123456789abcdef'),
  state: {
    version: '0.1.0',
    settings: { serviceUrl: 'http://127.0.0.1:8787', apiUrl: 'http://127.0.0.1:8787/api/v1', pollMinutes: 5 },
    key: { set: true, last4: 'abcd' },
    hostAccess: { missingOrigins: [] },
  },
  page: { items: [], nextCursor: null, hasMore: false, source: 'network', fetchedAt: 1 },
  outbox: [],
  savedAt: 1,
};

describe('popup snapshot', () => {
  beforeEach(() => clearPopupSnapshot());

  it('reads back what the worker wrote, and nothing once cleared', async () => {
    await writePopupSnapshot(snapshot, snapshotGeneration());
    expect(await readPopupSnapshot()).toEqual(snapshot);
    await clearPopupSnapshot();
    expect(await readPopupSnapshot()).toBeUndefined();
  });

  it('the popup reads it on a connection of its own, closed after the read', async () => {
    await writePopupSnapshot(snapshot, snapshotGeneration());
    expect(await readPopupSnapshotOnce()).toEqual(snapshot);
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
    expect(await readPopupSnapshotOnce()).toBeUndefined();
    expect(await readPopupSnapshot()).toBeUndefined();
  });

  it('binds to the service and the key: another of either is another binding', () => {
    const one = snapshotBinding('http://a', 'f1');
    expect(snapshotBinding('http://b', 'f1')).not.toBe(one);
    expect(snapshotBinding('http://a', 'f2')).not.toBe(one);
    expect(snapshotBinding('http://a', undefined)).not.toBe(one);
  });
});
