/**
 * How an outbox entry changes, and the only place it does: each named step of the state machine
 * (lifecycle.ts) applied by outbox.ts as one compare-and-swap transaction, pushed to open pages,
 * and the view of an entry pages are given (without the window's token, with the pages' status).
 */
import type { OutboxEntry } from '@/lib/contract/outbox';
import { log } from '@/lib/log';
import { HandledError } from '@/lib/messaging';
import { WRITE_ERRORS, type LifecycleCode, type WriteErrorCode } from './errors';
import { assertStep, statusOf, type StepName } from './lifecycle';
import { applyStep, type StepChange, type StoredWrite, type WriteDraft } from './outbox';

export type Entry = StoredWrite<WriteDraft>;

export type WriteChange = OutboxEntry<WriteDraft> | { id: string; removed: true };

/** Where every change is pushed (the switchboard sends it to open pages). */
let changeSink: ((change: WriteChange) => void) | undefined;

export function pushWriteChangesTo(sink: ((change: WriteChange) => void) | undefined): void {
  changeSink = sink;
}

export function announce(entry: Entry | { id: string; removed: true } | undefined): void {
  if (!entry || !changeSink) return;
  try {
    changeSink('removed' in entry ? entry : viewOf(entry));
  } catch (error) {
    log.warn('write.push-failed', { error });
  }
}

/**
 * The one way an entry changes: the named `step`, legal from the state `entry` was read in,
 * applied only while the stored entry is still in that state (and `still` holds). A change is
 * built from the stored entry, so it merges into what is stored now, never into a stale copy.
 * The entry after the step (undefined when it left the outbox); null when the step was refused.
 */
export async function move(
  entry: Entry,
  step: StepName,
  change: StepChange<WriteDraft> | ((current: Entry) => StepChange<WriteDraft>) = {},
  still: (current: Entry) => boolean = () => true,
): Promise<Entry | undefined | null> {
  const from = entry.state;
  assertStep(step, from);
  const result = await applyStep<WriteDraft>(
    entry.id,
    step,
    (current) => current.state === from && still(current),
    (current) => (typeof change === 'function' ? change(current) : change),
  );
  if (!result.done) {
    log.info('write.move-skipped', { draftId: entry.id, operationId: entry.operationId, from, step });
    return null;
  }
  log.info('write.moved', { draftId: entry.id, operationId: entry.operationId, step });
  announce(result.entry ?? { id: entry.id, removed: true });
  return result.entry;
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
  await move(entry, 'refuse', (current) => ({
    draft: { ...current.draft, confirmed: undefined, shown: undefined },
    error: { message, code },
  }));
  log.warn('write.refused', { draftId: entry.id, operationId: entry.operationId, code });
}

/** An entry as pages see it: without the window's token (only its window is given it), with its status. */
export function viewOf(entry: Entry): OutboxEntry<WriteDraft> {
  const { state, ...rest } = entry;
  const view = { ...rest, status: statusOf(state) };
  if (!entry.draft.shown) return view;
  const { token: _token, ...shown } = entry.draft.shown;
  return { ...view, draft: { ...entry.draft, shown: { ...shown, token: '' } } };
}
