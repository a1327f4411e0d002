import { browser } from 'wxt/browser';
import type { EventsPortMessage } from '@/lib/events/port';
import { log } from '@/lib/log';

/**
 * How a page learns of changes by push: it holds a port to the worker while it is open, and the
 * worker posts every change there (the side panel's events port; the popup's outbox port).
 */
const PING_MS = 20_000;
const RECONNECT_MS = 2_000;

/** A draft's change as the worker pushes it (lib/writes announces every transition). */
export type OutboxChange = Extract<EventsPortMessage, { type: 'outbox' }>['change'];

/**
 * Holds the port `name` until the returned stop is called: each message goes to `onMessage`. A
 * worker restart drops the port; the page reconnects (and `onDrop` says so). The page pings now
 * and then: port traffic keeps the worker alive.
 */
export function holdPort(name: string, onMessage: (message: EventsPortMessage) => void, onDrop?: () => void) {
  let closed = false;
  let port: ReturnType<typeof browser.runtime.connect> | undefined;
  let ping: ReturnType<typeof setInterval> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const connect = () => {
    try {
      port = browser.runtime.connect({ name });
    } catch (error) {
      // No worker to talk to (an invalidated extension context): the page shows what it read.
      log.warn('port.connect-failed', { name, error });
      return;
    }
    port.onMessage.addListener((raw: unknown) => onMessage(raw as EventsPortMessage));
    port.onDisconnect.addListener(() => {
      clearInterval(ping);
      if (closed) return;
      onDrop?.();
      retry = setTimeout(connect, RECONNECT_MS);
    });
    ping = setInterval(() => {
      try {
        port?.postMessage({ type: 'ping' });
      } catch (error) {
        log.warn('port.ping-failed', { name, error });
      }
    }, PING_MS);
  };
  connect();
  return () => {
    closed = true;
    clearInterval(ping);
    clearTimeout(retry);
    port?.disconnect();
  };
}

/** A list of drafts with one pushed change applied: replaced or added by id, or removed. */
export function applyOutboxChange<T extends { id: string }>(
  list: readonly T[],
  change: OutboxChange,
  shape: (entry: Exclude<OutboxChange, { removed: true }>, shown?: T) => T,
): T[] {
  if ('removed' in change) return list.filter((entry) => entry.id !== change.id);
  const at = list.findIndex((entry) => entry.id === change.id);
  if (at < 0) return [...list, shape(change)];
  return list.map((entry, index) => (index === at ? shape(change, entry) : entry));
}

/**
 * Drafts followed by push over lists read now and then (the popup's snapshot, the worker's
 * `openPopup` answer): a list read before a push must not undo it. Each read list gets the pushes
 * seen so far applied again, the last one per draft, unless the read entry is the newer of the two
 * (its `updatedAt`: a push still on its way brings that state anyway).
 */
export function outboxFollower<T extends { id: string; updatedAt: string }>(
  shape: (entry: Exclude<OutboxChange, { removed: true }>, shown?: T) => T,
) {
  const last = new Map<string, OutboxChange>();
  return {
    /** `list` with a pushed change applied, remembered for the lists read later. */
    pushed(list: readonly T[], change: OutboxChange): T[] {
      last.delete(change.id);
      last.set(change.id, change);
      return applyOutboxChange(list, change, shape);
    },
    /** A list read from the worker or the snapshot, with the pushes it may predate applied again. */
    read(list: readonly T[]): T[] {
      let drafts = [...list];
      for (const change of last.values()) {
        const read = drafts.find((entry) => entry.id === change.id);
        const readIsNewer =
          read !== undefined &&
          !('removed' in change) &&
          Date.parse(read.updatedAt) > Date.parse(change.updatedAt);
        if (!readIsNewer) drafts = applyOutboxChange(drafts, change, shape);
      }
      return drafts;
    },
  };
}

const listeners = new Set<(change: OutboxChange) => void>();

/** Follows draft changes (the side panel's writeTracker); returns the unsubscribe. */
export function onOutboxChange(listener: (change: OutboxChange) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Called by the side panel's events port for each `outbox` message. */
export function announceOutboxChange(change: OutboxChange): void {
  for (const listener of listeners) listener(change);
}
