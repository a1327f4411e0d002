import type { PlaybookPage, PopupSnapshot } from '@/lib/contract/wire';
import type { Visibility } from '@/lib/contract/visibility';
import { openDB } from 'idb';
import { clear, promisifyRequest, type UseStore } from 'idb-keyval';
import { browser } from 'wxt/browser';
import { keyValueStore } from './db';
import { DATABASE_NAME, STORAGE_ITEMS } from './inventory';
import { sameValue } from './sameValue';

/**
 * The read model's cache: one store (`snapshot`) holding the popup's record, the first page
 * of each list view the user opened and the playbooks last opened in the side panel, every record stamped with the service and key it was read
 * for. The worker's lib/background/readModel.ts is its only writer; pages read it through the
 * one-shot reads below (never upgrading the database) to paint before the worker answers.
 */
const snapshotStore = keyValueStore('snapshot');

export type { PopupDraft, PopupSnapshot } from '@/lib/contract/wire';

/** A list the popup (or the side panel) shows: whose playbooks, and which visibility. */
export interface ReadView {
  scope: 'mine' | 'public';
  visibility?: Visibility;
}

/** The view the popup opens on, whose first page its record paints. */
export const POPUP_VIEW: ReadView = { scope: 'mine' };

/**
 * The one key of the read model's store: the popup's record, or a list view's first page. Whose
 * data a record holds is not part of its key but its `binding` (below): the store holds one
 * service and key at a time (it is cleared when either changes), and a record of another is
 * never shown.
 */
export function readKey(entry: 'popup' | ReadView): string {
  return entry === 'popup' ? 'popup' : `view|${entry.scope}|${entry.visibility ?? 'all'}`;
}

/** The service URL and key fingerprint a record was read for. */
export function snapshotBinding(serviceUrl: string, keyFingerprint: string | undefined): string {
  return `${serviceUrl}|${keyFingerprint ?? 'no-key'}`;
}

/** A view's first page as stored: what the service said, and since when the store holds it. */
interface ViewRecord {
  binding: string;
  items: PlaybookPage['items'];
  nextCursor: string | null;
  hasMore: boolean;
  fetchedAt: number;
}

/** The popup's record: its first page lives in the record of POPUP_VIEW, not a second copy. */
type PopupRecord = Omit<PopupSnapshot, 'page'>;

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
function isViewRecord(value: unknown, binding: string): value is ViewRecord {
  const record = value as Partial<ViewRecord> | undefined;
  return (
    record?.binding === binding &&
    typeof record.fetchedAt === 'number' &&
    typeof record.hasMore === 'boolean' &&
    (record.nextCursor === null || typeof record.nextCursor === 'string') &&
    Array.isArray(record.items) &&
    record.items.every(isDrawableRow)
  );
}

function isPopupRecord(value: unknown): value is PopupRecord {
  const record = value as Partial<PopupRecord> | undefined;
  return (
    typeof record?.binding === 'string' &&
    typeof record.savedAt === 'number' &&
    typeof record.state === 'object' &&
    record.state !== null &&
    Array.isArray(record.outbox)
  );
}

function pageOf(record: ViewRecord): PlaybookPage {
  const { items, nextCursor, hasMore, fetchedAt } = record;
  return { items, nextCursor, hasMore, fetchedAt, source: 'cache' };
}

/** The popup's record and its view's first page, read in one transaction of `store`. */
async function readSnapshotFrom(store: UseStore): Promise<PopupSnapshot | undefined> {
  return store('readonly', async (objects) => {
    // Both asked at once: one round trip of the database, not two.
    const [record, view] = await Promise.all(
      [readKey('popup'), readKey(POPUP_VIEW)].map((key) => promisifyRequest<unknown>(objects.get(key))),
    );
    if (!isPopupRecord(record)) return undefined;
    return isViewRecord(view, record.binding) ? { ...record, page: pageOf(view) } : record;
  });
}

/** One view's first page for `binding`, in `store`. */
async function readViewFrom(store: UseStore, view: ReadView, binding: string) {
  return store('readonly', async (objects) => {
    const record: unknown = await promisifyRequest(objects.get(readKey(view)));
    return isViewRecord(record, binding) ? pageOf(record) : undefined;
  });
}

/** The playbooks whose detail was read last, newest first: what opens offline beyond the list's first page. */
export const MAX_SAVED_PLAYBOOKS = 50;
const PLAYBOOKS_KEY = 'playbooks';
type SavedPlaybook = { playbook: PlaybookPage['items'][number]; fetchedAt: number };
interface PlaybooksRecord {
  binding: string;
  saved: SavedPlaybook[];
}

function isPlaybooksRecord(value: unknown, binding: string): value is PlaybooksRecord {
  const record = value as Partial<PlaybooksRecord> | undefined;
  return (
    record?.binding === binding &&
    Array.isArray(record.saved) &&
    record.saved.every((entry) => typeof entry?.fetchedAt === 'number' && isDrawableRow(entry.playbook))
  );
}

/**
 * The saved copy of one playbook for `binding`: its own detail record, else its row on the
 * cached first page of the list (the same playbook the list shows offline), with when it was read.
 */
export async function readCachedPlaybook(id: string, binding: string): Promise<SavedPlaybook | undefined> {
  return snapshotStore('readonly', async (objects) => {
    const [details, list] = await Promise.all(
      [PLAYBOOKS_KEY, readKey(POPUP_VIEW)].map((key) => promisifyRequest<unknown>(objects.get(key))),
    );
    const own = isPlaybooksRecord(details, binding)
      ? details.saved.find((entry) => entry.playbook.id === id)
      : undefined;
    if (own) return own;
    const row = isViewRecord(list, binding) ? list.items.find((item) => item.id === id) : undefined;
    return row && isViewRecord(list, binding) ? { playbook: row, fetchedAt: list.fetchedAt } : undefined;
  });
}

/**
 * Saves a playbook's fresh detail at the front of the bounded list (only lib/background/readModel.ts
 * calls it); the same content read again writes nothing. Skipped after a clear since `readAt`.
 */
export async function writeCachedPlaybook(
  binding: string,
  fresh: SavedPlaybook,
  readAt: number,
): Promise<boolean> {
  return snapshotStore('readwrite', async (store) => {
    if (readAt !== clears) return false;
    const saved: unknown = await promisifyRequest(store.get(PLAYBOOKS_KEY));
    const kept = isPlaybooksRecord(saved, binding) ? saved.saved : [];
    const same = kept[0]?.playbook.id === fresh.playbook.id && sameValue(kept[0].playbook, fresh.playbook);
    if (same) return false;
    const others = kept.filter((entry) => entry.playbook.id !== fresh.playbook.id);
    const value: PlaybooksRecord = { binding, saved: [fresh, ...others].slice(0, MAX_SAVED_PLAYBOOKS) };
    await promisifyRequest(store.put(value, PLAYBOOKS_KEY));
    return true;
  });
}

/**
 * The last good answer of the side panel's detail reads (a playbook's catalysts, its performance
 * since capture, its backtests and newest result), newest first: what shows offline where the
 * playbook was opened before. Bounded in count and in each answer's size; bound to the service and
 * key like every record here, and cleared with them.
 */
export const MAX_KEPT_ANSWERS = 40;
export const MAX_KEPT_ANSWER_BYTES = 64 * 1024;
const ANSWERS_KEY = 'answers';
export interface KeptAnswer {
  key: string;
  value: unknown;
  savedAt: number;
}
interface AnswersRecord {
  binding: string;
  kept: KeptAnswer[];
}

function isAnswersRecord(value: unknown, binding: string): value is AnswersRecord {
  const record = value as Partial<AnswersRecord> | undefined;
  return (
    record?.binding === binding &&
    Array.isArray(record.kept) &&
    record.kept.every((entry) => typeof entry?.key === 'string' && typeof entry.savedAt === 'number')
  );
}

/** The answer kept under `key` for `binding`, with when it was saved. */
export async function readKeptAnswer(key: string, binding: string): Promise<KeptAnswer | undefined> {
  return snapshotStore('readonly', async (objects) => {
    const record: unknown = await promisifyRequest(objects.get(ANSWERS_KEY));
    return isAnswersRecord(record, binding) ? record.kept.find((entry) => entry.key === key) : undefined;
  });
}

/**
 * Keeps a fresh answer at the front (only lib/background/readModel.ts calls it); one too large to
 * keep drops the older copy instead, the same content read again writes nothing, and nothing is
 * written after a clear since `readAt`.
 */
export async function writeKeptAnswer(binding: string, fresh: KeptAnswer, readAt: number): Promise<boolean> {
  const fits = storedBytes(fresh.value) <= MAX_KEPT_ANSWER_BYTES;
  return snapshotStore('readwrite', async (store) => {
    if (readAt !== clears) return false;
    const saved: unknown = await promisifyRequest(store.get(ANSWERS_KEY));
    const kept = isAnswersRecord(saved, binding) ? saved.kept : [];
    if (fits && kept[0]?.key === fresh.key && sameValue(kept[0].value, fresh.value)) return false;
    const others = kept.filter((entry) => entry.key !== fresh.key);
    if (!fits && others.length === kept.length) return false;
    const value: AnswersRecord = {
      binding,
      kept: [...(fits ? [fresh] : []), ...others].slice(0, MAX_KEPT_ANSWERS),
    };
    await promisifyRequest(store.put(value, ANSWERS_KEY));
    return true;
  });
}

/** The worker's read, on its long-lived connection. */
export function readPopupSnapshot(): Promise<PopupSnapshot | undefined> {
  return readSnapshotFrom(snapshotStore);
}

/** The worker's read of a view's cached first page (source 'cache'). */
export function readCachedView(view: ReadView, binding: string): Promise<PlaybookPage | undefined> {
  return readViewFrom(snapshotStore, view, binding);
}

/**
 * A page's own read: no round trip to a worker that may be asleep. One connection opened at
 * whatever version exists (never upgrading, migrating or creating the database: that is the
 * worker's job) for one transaction, then closed so it never blocks an upgrade.
 */
async function readOnce<T>(read: (store: UseStore) => Promise<T | undefined>): Promise<T | undefined> {
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
    return await read(keyValueStore('snapshot', () => Promise.resolve(db)));
  } finally {
    db.close();
  }
}

/**
 * The popup's read before its first paint (entrypoints/popup/snapshotRead.ts): the first-frame
 * record in `storage.session` (no database to reopen), else the database, the store of record.
 */
export async function readPopupSnapshotOnce(): Promise<PopupSnapshot | undefined> {
  return (await readFirstFrame()) ?? readOnce(readSnapshotFrom);
}

/**
 * The side panel's own read of the list it opens on ("mine, all": the popup's view), for the
 * service and key the popup's record was read for: its first page, cached, or nothing.
 */
export async function readSavedListOnce(): Promise<PlaybookPage | undefined> {
  return (await readOnce(readSnapshotFrom))?.page;
}

/** The popup's read of another view's cached first page, shown while the worker reads it afresh. */
export function readCachedViewOnce(view: ReadView, binding: string): Promise<PlaybookPage | undefined> {
  return readOnce((store) => readViewFrom(store, view, binding));
}

/**
 * The popup's first-frame record: the popup's snapshot (record and first page, as the database
 * read gives it) mirrored in `storage.session`, memory only and out of content scripts' reach, so
 * a popup opened while the worker sleeps paints without reopening the database (25–45 ms). Written
 * after each write of the popup's record or first page, by the same writer; at most
 * MAX_FIRST_FRAME_BYTES (rows trimmed from the end to fit); removed with the database's copy.
 */
export const MAX_FIRST_FRAME_BYTES = 16 * 1024;
const FIRST_FRAME_NAME = STORAGE_ITEMS.popupFirstFrame.key.slice('session:'.length);

/** Bytes as `storage.session` counts them: the key and the value's JSON. */
function storedBytes(value: unknown): number {
  return new TextEncoder().encode(FIRST_FRAME_NAME + JSON.stringify(value)).length;
}

/**
 * `snapshot` cut to MAX_FIRST_FRAME_BYTES: whole while it fits, else its first rows only (its page
 * then leads nowhere: "Load more" waits for the worker's answer, which replaces it), else without
 * rows; undefined when not even that fits (a flood of drafts).
 */
export function firstFrameRecord(snapshot: PopupSnapshot): PopupSnapshot | undefined {
  if (storedBytes(snapshot) <= MAX_FIRST_FRAME_BYTES) return snapshot;
  const { page, ...record } = snapshot;
  for (let rows = (page?.items.length ?? 0) - 1; page && rows > 0; rows--) {
    const items = page.items.slice(0, rows);
    const kept = new Set(items.map((item) => item.id));
    const returns = snapshot.returns
      ? Object.fromEntries(Object.entries(snapshot.returns).filter(([id]) => kept.has(id)))
      : undefined;
    const cut = {
      ...record,
      ...(returns ? { returns } : {}),
      page: { ...page, items, nextCursor: null, hasMore: true },
    };
    if (storedBytes(cut) <= MAX_FIRST_FRAME_BYTES) return cut;
  }
  const { returns: _returns, ...bare } = record;
  return storedBytes(bare) <= MAX_FIRST_FRAME_BYTES ? bare : undefined;
}

/**
 * A first-frame record the popup may draw: the shape the database read gives, and bound to what
 * it says of itself, the service URL it holds and whether a key is saved (a record of another
 * service or key is never drawn; the worker drops one bound to other than the current ones).
 */
function isFirstFrame(value: unknown): value is PopupSnapshot {
  if (!isPopupRecord(value)) return false;
  const { binding, state } = value as PopupSnapshot;
  const settings = (state as Partial<PopupSnapshot['state']>).settings;
  const key = (state as Partial<PopupSnapshot['state']>).key;
  if (typeof settings?.serviceUrl !== 'string' || typeof key?.set !== 'boolean') return false;
  const keyPart = binding.slice(settings.serviceUrl.length + 1);
  if (!binding.startsWith(`${settings.serviceUrl}|`) || (keyPart === 'no-key') === key.set) return false;
  const page = (value as Partial<PopupSnapshot>).page;
  return page === undefined || isViewRecord({ ...page, binding }, binding);
}

async function readFirstFrame(): Promise<PopupSnapshot | undefined> {
  const value: unknown = (await browser.storage.session.get(FIRST_FRAME_NAME))[FIRST_FRAME_NAME];
  return isFirstFrame(value) ? value : undefined;
}

/**
 * Copies the popup's snapshot, as the database holds it now, into `storage.session` unless a clear
 * came since `readAt`; checked right before the write is issued, so a clear's removal follows it.
 */
async function mirrorFirstFrame(readAt: number): Promise<void> {
  const snapshot = await readPopupSnapshot();
  if (readAt !== clears) return;
  const record = snapshot && firstFrameRecord(snapshot);
  await (record
    ? browser.storage.session.set({ [FIRST_FRAME_NAME]: record })
    : browser.storage.session.remove(FIRST_FRAME_NAME));
}

/** Counts this context's clears: data read before one must not be written after it. */
let clears = 0;

/** Take it before reading what goes into the read model, and pass it to the writes below. */
export function snapshotGeneration(): number {
  return clears;
}

/** Volatile parts that change on every read and that the next answer replaces anyway. */
function popupContent(record: PopupRecord) {
  const { savedAt: _savedAt, ...rest } = record;
  const overview = rest.overview && { ...rest.overview, rateLimit: undefined };
  return { ...rest, overview };
}

function viewContent(record: Omit<ViewRecord, 'fetchedAt'>) {
  const { binding, items, nextCursor, hasMore } = record;
  return { binding, items, nextCursor, hasMore };
}

/**
 * Puts each record unless the store was cleared since `readAt` (a Save or a new key while its
 * data was read) or it already holds the same content: a revalidation that brings the same rows
 * back writes nothing (its time is kept by the caller, in memory). Checked inside the
 * transaction's callback, after the connection is awaited: a clear in between is seen. True when
 * something was written.
 */
async function putChanged(
  readAt: number,
  records: Array<{ key: string; value: PopupRecord | ViewRecord; same: (saved: unknown) => boolean }>,
): Promise<boolean> {
  return snapshotStore('readwrite', async (store) => {
    if (readAt !== clears) return false;
    const saved = await Promise.all(records.map(({ key }) => promisifyRequest(store.get(key))));
    const changed = records.filter((record, index) => !record.same(saved[index]));
    await Promise.all(changed.map(({ key, value }) => promisifyRequest(store.put(value, key))));
    return changed.length > 0;
  });
}

function viewEntry(view: ReadView, binding: string, page: PlaybookPage) {
  const value: ViewRecord = {
    binding,
    items: page.items,
    nextCursor: page.nextCursor,
    hasMore: page.hasMore,
    fetchedAt: page.fetchedAt,
  };
  const same = (saved: unknown) =>
    isViewRecord(saved, binding) && sameValue(viewContent(saved), viewContent(value));
  return { key: readKey(view), value, same };
}

/**
 * Saves the popup's snapshot: its record, and its first page as the record of POPUP_VIEW. Only
 * lib/background/readModel.ts calls it. No default for `readAt`: a generation taken at write
 * time would let any stale read through.
 */
export async function writePopupSnapshot(snapshot: PopupSnapshot, readAt: number): Promise<boolean> {
  const { page, ...record } = snapshot;
  const entries = [
    {
      key: readKey('popup'),
      value: record,
      same: (saved: unknown) => isPopupRecord(saved) && sameValue(popupContent(saved), popupContent(record)),
    },
    ...(page ? [viewEntry(POPUP_VIEW, snapshot.binding, page)] : []),
  ];
  const changed = await putChanged(readAt, entries);
  await mirrorFirstFrame(readAt);
  return changed;
}

/** Saves a view's fresh first page (only lib/background/readModel.ts calls it). */
export async function writeCachedView(
  view: ReadView,
  binding: string,
  page: PlaybookPage,
  readAt: number,
): Promise<boolean> {
  const changed = await putChanged(readAt, [viewEntry(view, binding, page)]);
  if (readKey(view) === readKey(POPUP_VIEW)) await mirrorFirstFrame(readAt);
  return changed;
}

/**
 * With the key or the service gone, or after a write changed what the service holds, nothing
 * read before may show, nor be written later.
 */
export async function clearPopupSnapshot(): Promise<void> {
  clears++;
  await dropPopupSnapshot();
}

/** Records found bound to another service or key go; reads under way for the current one still land. */
export async function dropPopupSnapshot(): Promise<void> {
  await Promise.all([clear(snapshotStore), browser.storage.session.remove(FIRST_FRAME_NAME)]);
}
