import type { OutboxEntry, WriteDraft } from '@/lib/contract/outbox';
import { database } from './db';

export type { DraftOrigin, OutboxEntry, OutboxStatus, WriteDraft } from '@/lib/contract/outbox';

/**
 * Only lib/writes (the owner of a write's lifecycle) calls this file's writers; lint forbids them
 * elsewhere. Drafts the user started, kept in the extension's database (the `outbox` store) from the moment of the click,
 * so a service-worker restart, a closed tab or a browser restart loses nothing. The records'
 * types live in lib/contract/outbox.ts.
 */

/** The playbook a draft acts on, from either spelling. */
export function playbookIdOf(draft: WriteDraft): string | undefined {
  return draft.playbookId ?? draft.path?.id;
}

export async function addToOutbox<T>(
  input: Pick<OutboxEntry<T>, 'origin' | 'operationId' | 'draft'>,
): Promise<OutboxEntry<T>> {
  const now = new Date().toISOString();
  const entry: OutboxEntry<T> = {
    id: crypto.randomUUID(),
    status: 'pending',
    createdAt: now,
    updatedAt: now,
    ...input,
  };
  await (await database()).put('outbox', entry, entry.id);
  return entry;
}

export async function getOutboxEntry<T = unknown>(id: string): Promise<OutboxEntry<T> | undefined> {
  return (await (await database()).get('outbox', id)) as OutboxEntry<T> | undefined;
}

export async function updateOutboxEntry<T>(
  id: string,
  change: Partial<Omit<OutboxEntry<T>, 'id' | 'createdAt'>>,
): Promise<OutboxEntry<T> | undefined> {
  // One transaction, so an update cannot undo a claim made between its read and its write.
  const transaction = (await database()).transaction('outbox', 'readwrite');
  const current = (await transaction.store.get(id)) as OutboxEntry<T> | undefined;
  if (!current) {
    await transaction.done;
    return undefined;
  }
  // The id and creation time are the entry's identity: a change can never move or re-date it.
  const next: OutboxEntry<T> = {
    ...current,
    ...change,
    id: current.id,
    createdAt: current.createdAt,
    updatedAt: new Date().toISOString(),
  };
  await Promise.all([transaction.store.put(next, id), transaction.done]);
  return next;
}

type EntryChange<T> = Partial<Pick<OutboxEntry<T>, 'status' | 'draft' | 'error'>>;

/**
 * One step of a write's lifecycle as one IndexedDB transaction: re-reads the entry, applies the
 * change only when `expected` still holds for what is stored now (a compare-and-swap: a caller
 * that read the entry before a concurrent send cannot write its stale copy back), and merges only
 * the fields the change names, built from the stored entry. Undefined when nothing was changed.
 */
export async function transitionOutboxEntry<T>(
  id: string,
  expected: (current: OutboxEntry<T>) => boolean,
  change: (current: OutboxEntry<T>) => EntryChange<T>,
): Promise<OutboxEntry<T> | undefined> {
  const transaction = (await database()).transaction('outbox', 'readwrite');
  // No await on anything but this transaction's requests between the read and the write, or it would commit early.
  const current = (await transaction.store.get(id)) as OutboxEntry<T> | undefined;
  if (!current || !expected(current)) {
    await transaction.done;
    return undefined;
  }
  const next: OutboxEntry<T> = { ...current, ...change(current), updatedAt: new Date().toISOString() };
  await Promise.all([transaction.store.put(next, id), transaction.done]);
  return next;
}

/**
 * Moves a pending or failed entry to "sending" with the draft to send, in one IndexedDB
 * transaction, and only while `mayClaim` holds for the stored entry (the window's token is still
 * the one confirmed, or the failed intent is still the one checked): two confirm windows, two
 * clicks or a confirm and a retry alarm can never both send it. Undefined when it was not free.
 */
export function claimForSending<T>(
  id: string,
  draft: T,
  mayClaim: (current: OutboxEntry<T>) => boolean = () => true,
): Promise<OutboxEntry<T> | undefined> {
  return transitionOutboxEntry<T>(
    id,
    (current) => (current.status === 'pending' || current.status === 'failed') && mayClaim(current),
    () => ({ status: 'sending', draft, error: undefined }),
  );
}

/**
 * Removes the entry in one IndexedDB transaction, only while `mayRemove` holds for what is stored
 * now (a discard cannot remove an entry a send claimed between its read and its delete). Whether
 * it was removed; `absent` when there was nothing to remove.
 */
export async function removeOutboxEntryIf<T>(
  id: string,
  mayRemove: (current: OutboxEntry<T>) => boolean,
): Promise<'removed' | 'kept' | 'absent'> {
  const transaction = (await database()).transaction('outbox', 'readwrite');
  const current = (await transaction.store.get(id)) as OutboxEntry<T> | undefined;
  if (!current || !mayRemove(current)) {
    await transaction.done;
    return current ? 'kept' : 'absent';
  }
  await Promise.all([transaction.store.delete(id), transaction.done]);
  return 'removed';
}

export async function removeFromOutbox(id: string): Promise<void> {
  await (await database()).delete('outbox', id);
}

export async function listOutbox(): Promise<OutboxEntry[]> {
  const all = (await (await database()).getAll('outbox')) as OutboxEntry[];
  return all.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}
