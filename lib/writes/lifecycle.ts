/**
 * A write's lifecycle as one typed state machine:
 *
 *   drafted → shown → confirmed → claimed → sent → settled
 *                                          ↘ failed | refused
 *
 * The outbox stores a compact encoding (status, the window's token, the confirmed intent, the
 * error code); `stateOf` reads the state back from it, and `assertTransition` is the one check
 * every change in lib/writes/owner.ts passes. Pure: no storage, no browser APIs.
 */
import type { OutboxEntry, WriteDraft } from '@/lib/store/outbox';
import { needsReview } from './errors';

export const WRITE_STATES = [
  'drafted',
  'shown',
  'confirmed',
  'claimed',
  'sent',
  'settled',
  'failed',
  'refused',
] as const;
export type WriteState = (typeof WRITE_STATES)[number];

/**
 * Every legal move. `shown → shown`: the draft's window is shown again (a reload, a new
 * resolution) and gets a new token. `failed → claimed`: the same confirmed bytes resent to the
 * same URL under the same key (after a 5xx, a timeout, a restart or a rate-limit wait).
 * `refused` leads only to `shown`: after a refusal nothing is sent until a window shows the write.
 */
export const TRANSITIONS = {
  drafted: ['shown'],
  shown: ['shown', 'confirmed', 'refused'],
  confirmed: ['claimed', 'refused'],
  claimed: ['sent', 'failed', 'refused'],
  sent: ['settled', 'failed'],
  settled: [],
  failed: ['shown', 'claimed', 'refused'],
  refused: ['shown'],
} as const satisfies Record<WriteState, readonly WriteState[]>;

/**
 * The states an entry may leave the outbox from: the user's Discard, or the purge of a settled
 * write. Never while claimed: its request may be on the wire, and the answer needs the entry.
 */
export const DISCARDS_FROM = [
  'drafted',
  'shown',
  'failed',
  'refused',
  'settled',
] as const satisfies readonly WriteState[];

export function canDiscard(from: WriteState): boolean {
  return (DISCARDS_FROM as readonly WriteState[]).includes(from);
}

export function canMove(from: WriteState, to: WriteState): boolean {
  return (TRANSITIONS[from] as readonly WriteState[]).includes(to);
}

export class IllegalTransitionError extends Error {
  constructor(
    readonly from: WriteState,
    readonly to: WriteState | 'discarded',
  ) {
    super(`A write cannot move from ${from} to ${to}.`);
    this.name = 'IllegalTransitionError';
  }
}

export function assertTransition(from: WriteState, to: WriteState): void {
  if (!canMove(from, to)) throw new IllegalTransitionError(from, to);
}

/** The state an outbox entry is in, read from its stored encoding. */
export function stateOf(entry: Pick<OutboxEntry<WriteDraft>, 'status' | 'draft' | 'error'>): WriteState {
  switch (entry.status) {
    case 'sent':
      return 'settled';
    case 'sending':
      return 'claimed';
    case 'failed':
      return needsReview(entry.error?.code) ? 'refused' : 'failed';
    case 'pending':
      return entry.draft.shown?.token ? 'shown' : 'drafted';
  }
}
