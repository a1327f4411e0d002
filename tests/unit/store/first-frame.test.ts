import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { DATABASE_NAME, STORAGE_ITEMS } from '@/lib/store/inventory';
import {
  clearPopupSnapshot,
  firstFrameRecord,
  MAX_FIRST_FRAME_BYTES,
  readPopupSnapshotOnce,
  snapshotBinding,
  snapshotGeneration,
  writeCachedView,
  writePopupSnapshot,
  POPUP_VIEW,
  type PopupSnapshot,
} from '@/lib/store/snapshot';

const SERVICE = 'http://127.0.0.1:8787';
const NAME = STORAGE_ITEMS.popupFirstFrame.key.slice('session:'.length);

type Row = NonNullable<PopupSnapshot['page']>['items'][number];

function row(index: number, titleLength = 20): Row {
  return {
    id: `p${index}`,
    title: `${index} ${'x'.repeat(titleLength)}`,
    visibility: 'private' as const,
    status: 'draft' as const,
    tickers: ['ABC'],
    updated_at: '2026-01-01T00:00:00Z',
  } as Row;
}

function snapshot(rows: number, titleLength = 20): PopupSnapshot {
  const items = Array.from({ length: rows }, (_, index) => row(index, titleLength));
  return {
    binding: snapshotBinding(SERVICE, '0123456789abcdef'),
    state: {
      version: '0.1.0',
      settings: { serviceUrl: SERVICE, apiUrl: `${SERVICE}/api/v1`, pollMinutes: 5 },
      key: { set: true, savedAt: 1 },
      hostAccess: { missingOrigins: [] },
    },
    page: {
      items,
      nextCursor: 'c1',
      hasMore: true,
      source: 'network',
      fetchedAt: 1,
    },
    returns: Object.fromEntries(items.map((item) => [item.id, 0.1])),
    outbox: [],
    savedAt: 1,
  };
}

async function session(): Promise<unknown> {
  return (await fakeBrowser.storage.session.get(NAME))[NAME];
}

const bytes = (value: unknown) => new TextEncoder().encode(NAME + JSON.stringify(value)).length;

async function deleteDatabase() {
  await new Promise((resolve) => (indexedDB.deleteDatabase(DATABASE_NAME).onsuccess = resolve));
}

describe("the popup's first-frame record in storage.session", () => {
  beforeEach(() => clearPopupSnapshot());

  it('is written with the snapshot, and the popup paints from it without the database', async () => {
    await writePopupSnapshot(snapshot(3), snapshotGeneration());
    expect((await session()) as PopupSnapshot).toMatchObject({ binding: snapshot(3).binding });
    await deleteDatabase();
    const read = await readPopupSnapshotOnce();
    expect(read?.page?.items.map((item) => item.id)).toEqual(['p0', 'p1', 'p2']);
    expect(read?.page?.source).toBe('cache');
  });

  it('follows a fresh first page written on its own (the popup view only)', async () => {
    const { page, ...record } = snapshot(2);
    await writePopupSnapshot(record, snapshotGeneration());
    await writeCachedView(POPUP_VIEW, record.binding, page!, snapshotGeneration());
    expect((await session()) as PopupSnapshot).toMatchObject({
      page: { items: [{ id: 'p0' }, { id: 'p1' }] },
    });
  });

  it.each([
    ['20 short rows', 20, 20],
    ['20 rows of 2,000-character titles', 20, 2000],
    ['one row longer than the cap', 1, 40_000],
  ])('never exceeds %s of 16 KB: rows are cut from the end (%s)', async (_name, rows, titleLength) => {
    const whole = snapshot(rows, titleLength);
    await writePopupSnapshot(whole, snapshotGeneration());
    const stored = (await session()) as PopupSnapshot;
    expect(bytes(stored)).toBeLessThanOrEqual(MAX_FIRST_FRAME_BYTES);
    const ids = stored.page?.items.map((item) => item.id) ?? [];
    expect(ids).toEqual(whole.page!.items.slice(0, ids.length).map((item) => item.id));
    if (bytes({ ...whole, page: { ...whole.page, source: 'cache' } }) <= MAX_FIRST_FRAME_BYTES)
      expect(ids).toHaveLength(rows);
    else {
      // Cut: its page leads nowhere (the worker's answer brings the cursor) and keeps only its rows' figures.
      expect(ids.length).toBeLessThan(rows);
      expect(stored.page?.nextCursor ?? null).toBeNull();
      expect(Object.keys(stored.returns ?? {}).sort()).toEqual([...ids].sort());
    }
  });

  it('writes nothing at all when not even the record without rows fits', () => {
    const flood = { ...snapshot(0), outbox: [{ note: 'y'.repeat(MAX_FIRST_FRAME_BYTES) }] } as never;
    expect(firstFrameRecord(flood)).toBeUndefined();
  });

  it('is cleared with the key (the same clear as the database copy)', async () => {
    await writePopupSnapshot(snapshot(2), snapshotGeneration());
    expect(await session()).toBeDefined();
    await clearPopupSnapshot();
    expect(await session()).toBeUndefined();
    expect(await readPopupSnapshotOnce()).toBeUndefined();
  });

  it('is not written by a read that started before a clear', async () => {
    const readAt = snapshotGeneration();
    await clearPopupSnapshot();
    await writePopupSnapshot(snapshot(2), readAt);
    expect(await session()).toBeUndefined();
  });

  it.each([
    ['another service', (s: PopupSnapshot) => ({ ...s, binding: snapshotBinding('http://other', 'f') })],
    [
      'no key, though the record says one is saved',
      (s: PopupSnapshot) => ({ ...s, binding: `${SERVICE}|no-key` }),
    ],
    [
      'a key, though the record says none is saved',
      (s: PopupSnapshot) => ({ ...s, state: { ...s.state, key: { set: false } } }),
    ],
  ])('is ignored when its binding does not match: %s', async (_name, change) => {
    // The database's copy (the store of record) is what the popup reads then.
    await writePopupSnapshot(snapshot(1), snapshotGeneration());
    const stored = (await session()) as PopupSnapshot;
    expect((await readPopupSnapshotOnce())?.page?.items).toHaveLength(1);
    await fakeBrowser.storage.session.set({
      [NAME]: change({ ...stored, page: { ...stored.page!, items: [row(9)] } }),
    });
    expect((await readPopupSnapshotOnce())?.page?.items.map((item) => item.id)).toEqual(['p0']);
    await deleteDatabase();
    expect(await readPopupSnapshotOnce()).toBeUndefined();
  });
});
