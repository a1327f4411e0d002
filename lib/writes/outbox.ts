/**
 * The outbox: drafts the user started, kept in the extension's database (lib/store's `outbox`
 * store) from the moment of the click, so a service-worker restart, a closed tab or a browser
 * restart loses nothing. Each record stores its state as it is, and changes only by a named step
 * of lifecycle.ts, applied in one IndexedDB transaction that re-reads the record and refuses the
 * step unless the stored state is one it starts from. Records of earlier versions (a `status`
 * instead of a state) are read as the state they meant.
 */
import type { OutboxEntry, WriteDraft } from '@/lib/contract/outbox';
import { WRITE_STATES, type WriteState } from '@/lib/contract/writes';
import { database } from '@/lib/store/db';
import { needsReview } from './errors';
import { after, allows, type StepName } from './lifecycle';

export type { DraftOrigin, WriteDraft } from '@/lib/contract/outbox';

/**
 * A record as stored: its state as it is (the one fact every step checks against the table of
 * lifecycle.ts), never the pages' derived status.
 */
export type StoredWrite<T = WriteDraft> = Omit<OutboxEntry<T>, 'status'> & { state: WriteState };

/** The playbook a draft acts on, from either spelling. */
export function playbookIdOf(draft: WriteDraft): string | undefined {
  return draft.playbookId ?? draft.path?.id;
}

type LegacyRecord = StoredWrite & { status?: string };

/** What a record of an earlier version (status pending, sending, failed or sent) meant. */
function legacyState(record: LegacyRecord): WriteState {
  const draft = record.draft as WriteDraft | undefined;
  switch (record.status) {
    case 'sent':
      return 'settled';
    case 'sending':
      return 'claimed';
    case 'failed':
      return needsReview(record.error?.code) ? 'refused' : 'failed';
    default:
      return draft?.shown?.token ? 'shown' : 'drafted';
  }
}

/** Migrate on read: a stored record as this version reads it (its state, no status). */
export function fromStored<T>(record: unknown): StoredWrite<T> | undefined {
  if (typeof record !== 'object' || record === null) return undefined;
  const legacy = record as LegacyRecord;
  if ((WRITE_STATES as readonly unknown[]).includes(legacy.state) && legacy.status === undefined)
    return record as StoredWrite<T>;
  const { status: _status, ...rest } = legacy;
  return { ...rest, state: legacyState(legacy) } as StoredWrite<T>;
}

/** A new draft: `drafted`, until its window shows it. */
export async function addDraft<T>(
  input: Pick<StoredWrite<T>, 'origin' | 'operationId' | 'draft'>,
): Promise<StoredWrite<T>> {
  const now = new Date().toISOString();
  const entry: StoredWrite<T> = {
    id: crypto.randomUUID(),
    state: 'drafted',
    createdAt: now,
    updatedAt: now,
    ...input,
  };
  await (await database()).put('outbox', entry, entry.id);
  return entry;
}

export async function readWrite<T = WriteDraft>(id: string): Promise<StoredWrite<T> | undefined> {
  return fromStored<T>(await (await database()).get('outbox', id));
}

/** Every record, newest first. */
export async function listWrites(): Promise<StoredWrite[]> {
  const all = (await (await database()).getAll('outbox')).flatMap(
    (record) => fromStored<WriteDraft>(record) ?? [],
  );
  return all.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** What a step may change besides the state: never the id, origin, operation or creation time. */
export type StepChange<T> = Partial<Pick<StoredWrite<T>, 'draft' | 'error' | 'windowId'>>;

/** A step applied (`entry` is the record after it, undefined when removed), or refused as it stands. */
export type StepResult<T> =
  { done: true; entry: StoredWrite<T> | undefined } | { done: false; current: StoredWrite<T> | undefined };

/**
 * One named step as one IndexedDB transaction: re-reads the record, applies the step only when
 * the table allows it from the stored state and `still` holds for what is stored now (a
 * compare-and-swap: a caller that read the record before a concurrent send cannot write its stale
 * copy back), and merges the change built from the stored record.
 */
export async function applyStep<T = WriteDraft>(
  id: string,
  step: StepName,
  still: (current: StoredWrite<T>) => boolean,
  change: (current: StoredWrite<T>) => StepChange<T> = () => ({}),
): Promise<StepResult<T>> {
  const transaction = (await database()).transaction('outbox', 'readwrite');
  // No await on anything but this transaction's requests between the read and the write, or it would commit early.
  const current = fromStored<T>(await transaction.store.get(id));
  if (!current || !allows(step, current.state) || !still(current)) {
    await transaction.done;
    return { done: false, current };
  }
  const to = after(step, current.state);
  if (to === 'removed') {
    await Promise.all([transaction.store.delete(id), transaction.done]);
    return { done: true, entry: undefined };
  }
  const next: StoredWrite<T> = {
    ...current,
    ...change(current),
    state: to,
    updatedAt: new Date().toISOString(),
  };
  await Promise.all([transaction.store.put(next, id), transaction.done]);
  return { done: true, entry: next };
}
