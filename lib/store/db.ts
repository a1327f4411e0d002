import { openDB, unwrap, type IDBPDatabase } from 'idb';
import type { UseStore } from 'idb-keyval';
import { log } from '@/lib/log';
import { DATABASE_NAME, type DatabaseStoreName } from './inventory';
import { copyLegacyDatabases, deleteLegacyDatabases } from './legacy';
import { DATABASE_VERSION, upgrade, type CompanionDatabase, type CompanionSchema } from './schema';

let opening: Promise<CompanionDatabase> | undefined;

async function open(): Promise<CompanionDatabase> {
  const db = await openDB<CompanionSchema>(DATABASE_NAME, DATABASE_VERSION, {
    upgrade,
    // A newer version wants to upgrade: let it, and reopen on the next call.
    blocking() {
      db.close();
      opening = undefined;
    },
    terminated() {
      opening = undefined;
    },
  });
  if (await copyLegacyDatabases(db))
    deleteLegacyDatabases(db).catch((error: unknown) => log.warn('store.legacy.delete-failed', { error }));
  return db;
}

/**
 * The one database, opened once per context and lazily (importing a store module opens
 * nothing). On the first open after an update the old per-store databases are copied in before
 * anyone may write; their deletion is not awaited, since a blocked delete must never stall the stores.
 */
export function database(): Promise<CompanionDatabase> {
  opening ??= open().catch((error: unknown) => {
    opening = undefined;
    throw error;
  });
  return opening;
}

/**
 * A store of the one database as idb-keyval's `UseStore`: idb-keyval does the key-value work
 * (get, set, del, update, entries) on it, and idb keeps the schema and its versioned upgrades
 * (schema.ts). `connection` is the worker's long-lived one unless given (the popup's one-shot read).
 */
export function keyValueStore(
  name: DatabaseStoreName,
  connection: () => Promise<IDBPDatabase<CompanionSchema> | IDBPDatabase> = database,
): UseStore {
  return async (mode, callback) =>
    callback(
      unwrap(await connection())
        .transaction(name, mode)
        .objectStore(name),
    );
}
