import { openDB } from 'idb';
import { log } from '@/lib/log';
import { DATABASE_NAME } from './inventory';
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
