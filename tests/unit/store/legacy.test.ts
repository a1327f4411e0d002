import { openDB } from 'idb';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DATABASE_NAME, DATABASE_STORES } from '@/lib/store/inventory';
import { copyLegacyDatabases, deleteLegacyDatabases, LEGACY_MIGRATION_KEY } from '@/lib/store/legacy';
import { DATABASE_VERSION, upgrade, type CompanionDatabase, type CompanionSchema } from '@/lib/store/schema';

/**
 * The databases as the code before the one database wrote them: idb-keyval's
 * `createStore(database, store)` (version 1, one store, out-of-line keys), values as stored.
 */
const API_KEY = 'pbk_live_migrated_key_0123456789abcd';
const SETTINGS = { serviceUrl: 'https://svc.example', apiUrl: 'https://api.svc.example/v1', pollMinutes: 15 };
const PENDING = {
  id: '0b8a1f9e-7d3c-4c55-9a1e-2f6f1c0d4e01',
  origin: 'content-script',
  operationId: 'createPlaybook',
  draft: { body: { title: 'Semis rebound', thesis: 'Chip capex turns up.' } },
  status: 'pending',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};
const FAILED = {
  id: '7c1e0d2a-3b4f-4e6a-8c9d-0e1f2a3b4c5d',
  origin: 'extension-page',
  operationId: 'runBacktest',
  draft: { playbookId: 'pb_1', body: { from: '2024-01-01' }, idempotencyKey: 'idem-1', mayHaveLanded: true },
  status: 'failed',
  createdAt: '2026-11-02T10:00:00.000Z',
  updatedAt: '2026-11-02T10:05:00.000Z',
  error: { message: 'The service failed.', code: 'server' },
};
const FEED = {
  events: [
    {
      id: 'ev_1',
      type: 'backtest.completed',
      at: '2026-11-02T11:00:00.000Z',
      via: 'poll',
      receivedAt: '2026-11-02T11:01:00.000Z',
    },
  ],
  unread: 1,
};
const CURSOR = { cursor: 'c_42', lastEventId: 'ev_1', since: '2026-10-01T00:00:00.000Z' };
const REPORT = { baseUrl: 'https://svc.example', startedAt: 'a', finishedAt: 'b', steps: [], documents: {} };

const OLD = {
  'playbook-companion-secrets': {
    store: 'secrets',
    records: { 'api-key': { key: API_KEY, apiOrigin: 'https://api.svc.example' } },
  },
  'playbook-companion-settings': { store: 'settings', records: { settings: SETTINGS } },
  'playbook-companion-outbox': { store: 'drafts', records: { [PENDING.id]: PENDING, [FAILED.id]: FAILED } },
  'playbook-companion-state': {
    store: 'state',
    records: { 'discovery-report': REPORT, 'events-feed': FEED, 'events-cursor': CURSOR },
  },
  'playbook-companion-read-cache': {
    store: 'reads',
    records: { 'listPlaybooks:{}': { value: { items: [] }, fetchedAt: 1 } },
  },
  'playbook-companion-discovery': {
    store: 'documents',
    records: {
      'https://svc.example/llms.txt': {
        url: 'https://svc.example/llms.txt',
        etag: '"1"',
        contentType: 'text/plain',
        body: '# svc',
        fetchedAt: 1,
        size: 5,
      },
    },
  },
  'playbook-companion-confirmations': { store: 'confirmations', records: { c1: { outboxId: PENDING.id } } },
} as const;

async function seedOldDatabases(): Promise<void> {
  for (const [name, { store, records }] of Object.entries(OLD)) {
    const db = await openDB(name, 1, { upgrade: (old) => void old.createObjectStore(store) });
    for (const [key, value] of Object.entries(records)) await db.put(store, value, key);
    db.close();
  }
}

async function databaseNames(): Promise<string[]> {
  return (await indexedDB.databases()).map((info) => info.name ?? '').sort();
}

/** What a fresh worker sees: new modules, same IndexedDB. */
async function restartWorker() {
  vi.resetModules();
  return {
    db: await import('@/lib/store/db'),
    apiKey: await import('@/lib/store/apiKey'),
    settings: await import('@/lib/store/settings'),
    state: await import('@/lib/store/state'),
    outbox: await import('@/lib/writes/outbox'),
    discovery: await import('@/lib/discovery/cache'),
  };
}

/** The new database, upgraded but not migrated: where a worker killed right after the open left it. */
function openNewDatabaseOnly(): Promise<CompanionDatabase> {
  return openDB<CompanionSchema>(DATABASE_NAME, DATABASE_VERSION, { upgrade });
}

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

async function expectEverythingCopied(modules: Awaited<ReturnType<typeof restartWorker>>) {
  expect(await modules.settings.getSettings()).toEqual(SETTINGS);
  // The key comes back only because its bound API origin came along and matches the settings.
  expect(await modules.apiKey.loadApiKey()).toBe(API_KEY);
  // Read as the state each record meant: the stored status is migrated on read.
  const { status: _failed, ...failed } = FAILED;
  const { status: _pending, ...pending } = PENDING;
  expect(await modules.outbox.listWrites()).toEqual([
    { ...failed, state: 'failed' },
    { ...pending, state: 'drafted' },
  ]);
  expect(await modules.state.readState('events-feed')).toEqual(FEED);
  expect(await modules.state.readState('events-cursor')).toEqual(CURSOR);
  expect(await modules.state.readState('discovery-report')).toEqual(REPORT);
}

describe('an update from the per-store databases', () => {
  it('keeps key, settings, drafts and state, drops the caches and deletes every old database', async () => {
    await seedOldDatabases();
    const worker = await restartWorker();

    await expectEverythingCopied(worker);
    expect(await worker.discovery.idbDocumentCache.get('https://svc.example/llms.txt')).toBeUndefined();
    expect(await (await worker.db.database()).count('snapshot')).toBe(0);
    await vi.waitFor(async () => expect(await databaseNames()).toEqual(['playbook-companion']));
    // A migrated draft is an ordinary draft: its window can show it, and it is stored as shown.
    expect(await worker.outbox.applyStep(PENDING.id, 'show', () => true)).toMatchObject({
      done: true,
      entry: { state: 'shown' },
    });
    expect(await worker.outbox.readWrite(PENDING.id)).toMatchObject({ state: 'shown' });
  });

  it('copies nothing twice: a second run neither duplicates drafts nor overwrites newer data', async () => {
    await seedOldDatabases();
    const first = await openNewDatabaseOnly();
    expect(await copyLegacyDatabases(first)).toBe(true);
    // The user works on between the two runs: a newer setting, a discarded draft.
    await first.put('settings', { ...SETTINGS, pollMinutes: 30 }, 'settings');
    await first.delete('outbox', FAILED.id);

    expect(await copyLegacyDatabases(first)).toBe(true);
    await deleteLegacyDatabases(first);
    expect(await copyLegacyDatabases(first)).toBe(false);
    await deleteLegacyDatabases(first);
    first.close();

    const worker = await restartWorker();
    expect((await worker.settings.getSettings()).pollMinutes).toBe(30);
    expect((await worker.outbox.listWrites()).map((entry) => entry.id)).toEqual([PENDING.id]);
    expect(await databaseNames()).toEqual(['playbook-companion']);
  });

  it('finishes after a worker killed between the copy and the delete, without copying again', async () => {
    await seedOldDatabases();
    // The first start gets only as far as the committed copy; the user then changes a setting.
    const first = await openNewDatabaseOnly();
    expect(await copyLegacyDatabases(first)).toBe(true);
    await first.put('settings', { ...SETTINGS, pollMinutes: 60 }, 'settings');
    first.close();
    expect(await databaseNames()).toContain('playbook-companion-outbox');

    const worker = await restartWorker();
    expect((await worker.settings.getSettings()).pollMinutes).toBe(60);
    expect(await worker.outbox.listWrites()).toHaveLength(2);
    await vi.waitFor(async () => expect(await databaseNames()).toEqual(['playbook-companion']));
    expect(await (await worker.db.database()).get('meta', LEGACY_MIGRATION_KEY)).toBe('deleted');
  });

  it('copies again from scratch when the worker died before the copy committed', async () => {
    await seedOldDatabases();
    // The new database exists, but the copy transaction never committed: no marker, no records.
    (await openNewDatabaseOnly()).close();
    const worker = await restartWorker();

    await expectEverythingCopied(worker);
    await vi.waitFor(async () => expect(await databaseNames()).toEqual(['playbook-companion']));
  });

  it('a fresh install gets every store the inventory lists and no old database', async () => {
    const worker = await restartWorker();
    const db = await worker.db.database();
    expect([...db.objectStoreNames].sort()).toEqual(Object.keys(DATABASE_STORES).sort());
    expect(await worker.settings.getSettings()).toEqual(worker.settings.DEFAULT_SETTINGS);
    await vi.waitFor(async () => expect(await databaseNames()).toEqual(['playbook-companion']));
  });

  it('version 3 folds the list cache into the read model: `reads` goes, the other stores and their records stay', async () => {
    // A database as version 2 left it: every store of then, with a cached list page and a key.
    const old = await openDB(DATABASE_NAME, 2, {
      upgrade(db) {
        for (const name of [...Object.keys(DATABASE_STORES), 'reads']) db.createObjectStore(name);
      },
    });
    await old.put('reads', { value: { items: [] }, fetchedAt: 1 }, 'http://svc|listPlaybooks|all');
    await old.put('secrets', { key: API_KEY, apiOrigin: 'https://api.svc.example' }, 'api-key');
    await old.put('meta', 'deleted', LEGACY_MIGRATION_KEY);
    old.close();

    const worker = await restartWorker();
    const db = await worker.db.database();
    expect(db.version).toBe(DATABASE_VERSION);
    expect([...db.objectStoreNames].sort()).toEqual(Object.keys(DATABASE_STORES).sort());
    expect([...db.objectStoreNames]).not.toContain('reads');
    expect(await db.get('secrets', 'api-key')).toMatchObject({ key: API_KEY });
  });
});
