import type { PopupSnapshot } from '@/lib/messaging/protocol';
import { openDB } from 'idb';
import { clear, get, promisifyRequest } from 'idb-keyval';
import { keyValueStore } from './db';
import { DATABASE_NAME } from './inventory';

/** The one record of the `snapshot` store: the popup paints from it before the worker answers. */
const POPUP_SNAPSHOT = 'popup';
const snapshotStore = keyValueStore('snapshot');

export type { PopupDraft, PopupSnapshot } from '@/lib/messaging/protocol';

export function snapshotBinding(serviceUrl: string, keyFingerprint: string | undefined): string {
  return `${serviceUrl}|${keyFingerprint ?? 'no-key'}`;
}

/** What a popup row reads of a playbook (lib/pages/popup/PlaybookRow.tsx). */
function isDrawableRow(value: unknown): boolean {
  const row = value as Record<string, unknown> | null | undefined;
  return (
    typeof row?.id === 'string' &&
    typeof row.title === 'string' &&
    typeof row.visibility === 'string' &&
    typeof row.status === 'string' &&
    typeof row.updated_at === 'string' &&
    Array.isArray(row.tickers)
  );
}

/**
 * A record that may predate this shape is dropped, not trusted. Every row is checked: the popup's
 * first frame draws only the first rows, so a row it cannot draw further down would otherwise
 * fail a frame later, past the point where start.tsx falls back to the worker's answer.
 */
function isPopupSnapshot(value: unknown): value is PopupSnapshot {
  const record = value as Partial<PopupSnapshot> | undefined;
  return (
    typeof record?.binding === 'string' &&
    typeof record.savedAt === 'number' &&
    typeof record.state === 'object' &&
    record.state !== null &&
    Array.isArray(record.outbox) &&
    (record.page === undefined ||
      (Array.isArray(record.page.items) && record.page.items.every(isDrawableRow)))
  );
}

/** The worker's read, on its long-lived connection. */
export async function readPopupSnapshot(): Promise<PopupSnapshot | undefined> {
  const value: unknown = await get(POPUP_SNAPSHOT, snapshotStore);
  return isPopupSnapshot(value) ? value : undefined;
}

/**
 * The popup's own read before its first paint: no round trip to a worker that may be asleep. One
 * connection opened at whatever version exists (never upgrading, migrating or creating the
 * database: that is the worker's job) for one get, then closed so it never blocks an upgrade.
 */
export async function readPopupSnapshotOnce(): Promise<PopupSnapshot | undefined> {
  const db = await openDB(DATABASE_NAME, undefined, {
    // No database yet: abort rather than create an empty one (openDB then rejects).
    upgrade: (_db, _old, _new, transaction) => {
      transaction.done.catch(() => undefined);
      transaction.abort();
    },
  }).catch(() => undefined);
  if (!db) return undefined;
  try {
    if (!db.objectStoreNames.contains('snapshot')) return undefined;
    const value: unknown = await get(
      POPUP_SNAPSHOT,
      keyValueStore('snapshot', () => Promise.resolve(db)),
    );
    return isPopupSnapshot(value) ? value : undefined;
  } finally {
    db.close();
  }
}

/** Counts this context's clears: data read before one must not be written after it. */
let clears = 0;

/** Take it before reading what goes into a snapshot, and pass it to `writePopupSnapshot`. */
export function snapshotGeneration(): number {
  return clears;
}

/**
 * Saves the snapshot unless it was cleared since `readAt` (a Save or a new key while its data
 * was read): a snapshot is never written for a service or key that is already gone. No default:
 * a generation taken at write time would let any stale read through.
 */
export async function writePopupSnapshot(snapshot: PopupSnapshot, readAt: number): Promise<boolean> {
  // Checked inside the transaction's callback, after the connection is awaited: a clear in between is seen.
  return snapshotStore('readwrite', async (store) => {
    if (readAt !== clears) return false;
    await promisifyRequest(store.put(snapshot, POPUP_SNAPSHOT));
    return true;
  });
}

/** With the key or the service gone, nothing read for them may show, nor be written later. */
export async function clearPopupSnapshot(): Promise<void> {
  clears++;
  await dropPopupSnapshot();
}

/** A record found bound to another service or key goes; reads under way for the current one still land. */
export async function dropPopupSnapshot(): Promise<void> {
  await clear(snapshotStore);
}
