import type { EventsPortMessage } from '@/lib/events/port';

/** A draft's change as the worker pushes it over the events port (lib/writes announces every transition). */
export type OutboxChange = Extract<EventsPortMessage, { type: 'outbox' }>['change'];

const listeners = new Set<(change: OutboxChange) => void>();

/** Follows draft changes (writeTracker); returns the unsubscribe. */
export function onOutboxChange(listener: (change: OutboxChange) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Called by the events port for each `outbox` message. */
export function announceOutboxChange(change: OutboxChange): void {
  for (const listener of listeners) listener(change);
}
