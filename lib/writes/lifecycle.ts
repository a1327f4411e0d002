/**
 * A write's lifecycle as one typed state machine:
 *
 *   drafted → shown → confirmed → claimed → sent → settled
 *                                     ↘ failed | refused
 *
 * The outbox record stores its state as it is (`state`). Every change of a record is one of the
 * named steps below, and lib/writes/outbox.ts applies a step only when the stored state is one
 * the step starts from: the window id, a discard and the purge are steps too. Pure: no storage.
 */
import { WRITE_STATES, type WriteState } from '@/lib/contract/writes';
import type { OutboxStatus } from '@/lib/contract/outbox';

export { WRITE_STATES, type WriteState };

const ANY = WRITE_STATES;

/**
 * Every change an outbox record may undergo, by name: the states it may start from, and where it
 * leads (`stay`: the state does not change; `removed`: the record leaves the outbox).
 * - `show`: the draft's window shows it (again) and gets a new token; a failed write shown again
 *   keeps its failure and its Retry (`showFailed`).
 * - `confirm` spends the token into the confirmed intent; `claim` takes it (or a failed write's
 *   intent, for a resend) for sending; `send` hands it to the API client, after the last check.
 * - `interrupt`: a worker stopped between the confirmation and the answer; the resend reuses the key.
 * - `discard` and `purge` remove the record: never while it is confirmed, claimed or sent (its
 *   request may be on the wire, and the answer needs the record).
 */
export const STEPS = {
  show: { from: ['drafted', 'shown', 'refused'], to: 'shown' },
  showFailed: { from: ['failed'], to: 'stay' },
  confirm: { from: ['shown', 'failed'], to: 'confirmed' },
  claim: { from: ['confirmed', 'failed'], to: 'claimed' },
  send: { from: ['claimed'], to: 'sent' },
  settle: { from: ['sent'], to: 'settled' },
  fail: { from: ['sent'], to: 'failed' },
  interrupt: { from: ['confirmed', 'claimed', 'sent'], to: 'failed' },
  refuse: { from: ['shown', 'confirmed', 'claimed', 'sent', 'failed'], to: 'refused' },
  placeWindow: { from: ANY, to: 'stay' },
  discard: { from: ['drafted', 'shown', 'failed', 'refused', 'settled'], to: 'removed' },
  purge: { from: ['settled'], to: 'removed' },
} as const satisfies Record<string, { from: readonly WriteState[]; to: WriteState | 'stay' | 'removed' }>;
export type StepName = keyof typeof STEPS;

/** Whether `step` may start from `from`. */
export function allows(step: StepName, from: WriteState): boolean {
  return (STEPS[step].from as readonly WriteState[]).includes(from);
}

/** The state after `step` from `from` (`removed` when the record leaves the outbox). */
export function after(step: StepName, from: WriteState): WriteState | 'removed' {
  const to = STEPS[step].to;
  return to === 'stay' ? from : to;
}

/** Whether some step leads from `from` to `to` (the picture of the table as edges). */
export function canMove(from: WriteState, to: WriteState): boolean {
  return (Object.keys(STEPS) as StepName[]).some(
    (step) => allows(step, from) && after(step, from) === to && to !== from,
  );
}

export function canDiscard(from: WriteState): boolean {
  return allows('discard', from);
}

export class IllegalTransitionError extends Error {
  constructor(
    readonly from: WriteState,
    readonly step: StepName,
  ) {
    super(`A write cannot ${step} from ${from}.`);
    this.name = 'IllegalTransitionError';
  }
}

export function assertStep(step: StepName, from: WriteState): void {
  if (!allows(step, from)) throw new IllegalTransitionError(from, step);
}

/** The pages' coarse word for a state (what the popup and the confirm window show). */
export function statusOf(state: WriteState): OutboxStatus {
  switch (state) {
    case 'drafted':
    case 'shown':
      return 'pending';
    case 'confirmed':
    case 'claimed':
    case 'sent':
      return 'sending';
    case 'settled':
      return 'sent';
    case 'failed':
    case 'refused':
      return 'failed';
  }
}
