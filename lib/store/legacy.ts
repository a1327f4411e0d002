import { deleteDB, openDB } from 'idb';
import type { CompanionDatabase } from './schema';

/**
 * Before the one database, each store was its own idb-keyval database (`createStore(database,
 * store)`, values under out-of-line keys). An update copies what must not be lost and deletes them all.
 */
export const LEGACY_DATABASES = [
  { database: 'playbook-companion-secrets', store: 'secrets', into: 'secrets' },
  { database: 'playbook-companion-settings', store: 'settings', into: 'settings' },
  { database: 'playbook-companion-outbox', store: 'drafts', into: 'outbox' },
  { database: 'playbook-companion-state', store: 'state', into: 'state' },
  // Caches are refetched on demand: dropped, not copied.
  { database: 'playbook-companion-read-cache', store: 'reads' },
  { database: 'playbook-companion-discovery', store: 'documents' },
  // The confirmations ledger is gone from the code; nothing in it is needed.
  { database: 'playbook-companion-confirmations', store: 'confirmations' },
] as const;

/** In the `meta` store: absent until the copy commits, `copied` until the old databases are deleted. */
export const LEGACY_MIGRATION_KEY = 'legacy-databases';
type LegacyMigration = 'copied' | 'deleted';

type CopiedStore = Extract<(typeof LEGACY_DATABASES)[number], { into: string }>['into'];

interface LegacyContents {
  into: CopiedStore;
  keys: IDBValidKey[];
  values: unknown[];
}

async function existingDatabases(): Promise<Set<string>> {
  return new Set((await indexedDB.databases()).flatMap((info) => (info.name ? [info.name] : [])));
}

/** Reads one old database whole; opening it without a version never upgrades or empties it. */
async function readLegacy(database: string, store: string, into: CopiedStore): Promise<LegacyContents> {
  const old = await openDB(database);
  try {
    if (!old.objectStoreNames.contains(store)) return { into, keys: [], values: [] };
    const transaction = old.transaction(store, 'readonly');
    // Both lists come in key order from one transaction, so they pair up.
    const [keys, values] = await Promise.all([transaction.store.getAllKeys(), transaction.store.getAll()]);
    return { into, keys, values };
  } finally {
    old.close();
  }
}

async function migrationState(db: CompanionDatabase): Promise<LegacyMigration | undefined> {
  return (await db.get('meta', LEGACY_MIGRATION_KEY)) as LegacyMigration | undefined;
}

/**
 * Copies keys, drafts, settings and state from the old databases in one transaction that also
 * marks the copy done, so a worker killed midway copies again from scratch, and a second run (or
 * another page racing this one) copies nothing: newer writes are never overwritten by old data.
 * True when old databases are left to delete.
 */
export async function copyLegacyDatabases(db: CompanionDatabase): Promise<boolean> {
  const state = await migrationState(db);
  if (state === 'deleted') return false;
  if (state === 'copied') return true;
  const present = await existingDatabases();
  const contents: LegacyContents[] = [];
  for (const legacy of LEGACY_DATABASES)
    if ('into' in legacy && present.has(legacy.database))
      contents.push(await readLegacy(legacy.database, legacy.store, legacy.into));

  const transaction = db.transaction(['secrets', 'settings', 'outbox', 'state', 'meta'], 'readwrite');
  const writes: Promise<unknown>[] = [];
  // IndexedDB runs overlapping read-write transactions one at a time: this check cannot race.
  if ((await transaction.objectStore('meta').get(LEGACY_MIGRATION_KEY)) === undefined) {
    for (const { into, keys, values } of contents) {
      const store = transaction.objectStore(into);
      // The old stores used the same out-of-line keys, so a record keeps its key (a draft its id).
      keys.forEach((key, index) => writes.push(store.put(values[index], key as never)));
    }
    writes.push(
      transaction.objectStore('meta').put('copied' satisfies LegacyMigration, LEGACY_MIGRATION_KEY),
    );
  }
  await Promise.all([...writes, transaction.done]);
  return true;
}

/** Deletes every old database, then records it; run again after a crash, it finds nothing to delete. */
export async function deleteLegacyDatabases(db: CompanionDatabase): Promise<void> {
  const present = await existingDatabases();
  for (const { database } of LEGACY_DATABASES) if (present.has(database)) await deleteDB(database);
  await db.put('meta', 'deleted' satisfies LegacyMigration, LEGACY_MIGRATION_KEY);
}
