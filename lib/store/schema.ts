import type { DBSchema, IDBPDatabase } from 'idb';
import type { QuietHours, ReminderLead } from '@/lib/contract/wire';
import { DATABASE_STORES, type DatabaseStoreName } from './inventory';

/** What the options page saved; the defaults live in lib/store/settings.ts. */
export interface SettingsRecord {
  serviceUrl: string;
  apiUrl: string;
  /** How often the background polls `listEvents` while no side panel streams them. */
  pollMinutes: number;
  /** "Catalyst reminders"; absent in settings saved before them (the default then applies). */
  reminderLead?: ReminderLead;
  /** Quiet hours for reminders; off when absent or null. */
  quietHours?: QuietHours | null;
}

/** The API key and the API origin it was saved for: it is sent to that origin only. */
export interface ApiKeyRecord {
  key: string;
  apiOrigin: string;
  /** When it was saved (epoch ms); records from before 0.x lack it. */
  savedAt?: number;
}

/**
 * The outbox's own type (lib/writes/outbox.ts) is richer; the database needs only these. Records
 * of earlier versions have a `status` instead of a `state` (read as the state they meant).
 */
export interface OutboxRecord {
  id: string;
  state?: string;
  status?: string;
  createdAt: string;
}

/**
 * The stores of the one database, all with out-of-line keys. Records that may predate a
 * shape (older versions, migrated data) are read as `unknown` or checked by their module.
 */
export interface CompanionSchema extends DBSchema {
  secrets: { key: 'api-key'; value: ApiKeyRecord };
  settings: { key: 'settings'; value: Partial<SettingsRecord> };
  outbox: { key: string; value: OutboxRecord };
  state: { key: string; value: unknown };
  discovery: { key: string; value: unknown };
  meta: { key: string; value: string };
  /** The read model's cache; each record checked by lib/store/snapshot.ts when read. */
  snapshot: { key: string; value: unknown };
}

export type CompanionDatabase = IDBPDatabase<CompanionSchema>;

/** Raise by one for each schema change and add its step to `upgrade`. */
export const DATABASE_VERSION = 3;

/** Creates what the inventory lists and the database lacks: safe to run at every version step. */
function createMissingStores(db: CompanionDatabase): void {
  for (const name of Object.keys(DATABASE_STORES) as DatabaseStoreName[])
    if (!db.objectStoreNames.contains(name)) db.createObjectStore(name);
}

/** One step per version; a new store is `if (oldVersion < N) createMissingStores(db)` with the version raised. */
export function upgrade(db: CompanionDatabase, oldVersion: number): void {
  if (oldVersion < 1) createMissingStores(db);
  // Version 2: the popup's snapshot.
  if (oldVersion < 2) createMissingStores(db);
  // Version 3: one read model, one cache. The list pages of the `reads` store now live in
  // `snapshot` beside the popup's record; a cache is refetched, so its records are dropped.
  const untyped = db as unknown as IDBPDatabase;
  if (oldVersion < 3 && untyped.objectStoreNames.contains(RETIRED_READS))
    untyped.deleteObjectStore(RETIRED_READS);
}

/** A store of earlier versions, deleted by the step that retired it. */
const RETIRED_READS = 'reads';
