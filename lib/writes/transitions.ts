/**
 * How an outbox entry changes, and the only place it does: each step of the state machine
 * (lifecycle.ts) stored as one compare-and-swap transaction, pushed to open pages, and the view of
 * an entry pages are given (without the window's token).
 */
import { log } from '@/lib/log';
import { HandledError } from '@/lib/messaging';
import { transitionOutboxEntry, type OutboxEntry, type WriteDraft } from '@/lib/store/outbox';
import { WRITE_ERRORS, type LifecycleCode, type WriteErrorCode } from './errors';
import { assertTransition, stateOf, type WriteState } from './lifecycle';

export type Entry = OutboxEntry<WriteDraft>;

/** claimed → sent → settled: the service answered with success. */
export async function settle(claimed: Entry, draft: WriteDraft): Promise<Entry | undefined> {
  assertTransition(stateOf(claimed), 'sent');
  assertTransition('sent', 'settled');
  const next = await transitionOutboxEntry<WriteDraft>(
    claimed.id,
    (current) => stateOf(current) === 'claimed',
    () => ({ status: 'sent', draft }),
  );
  announce(next);
  return next;
}

type WriteChange = Entry | { id: string; removed: true };

/** Where every change is pushed (the switchboard sends it to open side panels over their port). */
let changeSink: ((change: WriteChange) => void) | undefined;

export function pushWriteChangesTo(sink: ((change: WriteChange) => void) | undefined): void {
  changeSink = sink;
}

export function announce(entry: WriteChange | undefined): void {
  if (!entry || !changeSink) return;
  try {
    changeSink('removed' in entry ? entry : viewOf(entry));
  } catch (error) {
    log.warn('write.push-failed', { error });
  }
}

type EntryChange = Partial<Pick<Entry, 'status' | 'draft' | 'error'>>;

/**
 * The one way an entry changes: a legal transition of the state machine, stored in one IndexedDB
 * transaction that re-reads the entry and changes it only while it is still in the state `entry`
 * was read in (and `still` holds). A change given as a function is built from the stored entry, so
 * it merges into what is stored now, never into a stale copy. Undefined when the entry moved on.
 */
export async function move(
  entry: Entry,
  to: WriteState,
  change: EntryChange | ((current: Entry) => EntryChange),
  still: (current: Entry) => boolean = () => true,
): Promise<Entry | undefined> {
  const from = stateOf(entry);
  assertTransition(from, to);
  const next = await transitionOutboxEntry<WriteDraft>(
    entry.id,
    (current) => stateOf(current) === from && still(current),
    (current) => (typeof change === 'function' ? change(current) : change),
  );
  if (!next) {
    log.info('write.move-skipped', { draftId: entry.id, operationId: entry.operationId, from, to });
    return undefined;
  }
  log.info('write.moved', { draftId: entry.id, operationId: entry.operationId, to });
  announce(next);
  return next;
}

export function refusal(
  code: WriteErrorCode,
  message?: string,
  fields?: Record<string, string>,
): HandledError {
  return new HandledError({ code, message: message ?? WRITE_ERRORS[code].message, fields });
}

/**
 * Nothing is sent: the draft keeps its body and key, loses its token and confirmation, and waits
 * for its window to show it again as it now resolves.
 */
export async function refuse(
  entry: Entry,
  code: LifecycleCode | 'api.unconfirmed-write',
  message: string,
): Promise<void> {
  await move(entry, 'refused', (current) => ({
    status: 'failed',
    draft: { ...current.draft, confirmed: undefined, shown: undefined },
    error: { message, code },
  }));
  log.warn('write.refused', { draftId: entry.id, operationId: entry.operationId, code });
}

/** An entry as pages see it: without the window's token, which only its window is given. */
export function viewOf(entry: Entry): Entry {
  if (!entry.draft.shown) return entry;
  const { token: _token, ...shown } = entry.draft.shown;
  return { ...entry, draft: { ...entry.draft, shown: { ...shown, token: '' } } };
}
