import type { ServiceEvent } from '@/lib/api/schemas';
import { readState, writeState } from '@/lib/store/state';
import { carriesSecretInAnyForm } from '@/lib/log';
import { RECENT_EVENTS_MAX } from './port';

export { RECENT_EVENTS_MAX };

/**
 * The events the extension has seen, kept in IndexedDB (lib/store/state.ts) so a restarted
 * worker neither loses them nor announces them twice. Both transports (SSE and polling) feed the
 * same list; an event id seen once is never counted or notified again.
 */
export type EventTransport = 'stream' | 'poll';

export interface RecentEvent extends ServiceEvent {
  /** How the event reached the extension first. */
  via: EventTransport;
  receivedAt: string;
}

export interface EventCursor {
  /** listEvents' opaque position: polling resumes after it. */
  cursor?: string;
  /** The last id a stream or a poll delivered: SSE resumes from it (Last-Event-ID). */
  lastEventId?: string;
  /** Events that happened before the extension started watching are history, not news. */
  since: string;
}

export interface EventFeed {
  events: RecentEvent[];
  unread: number;
}

const FEED_KEY = 'events-feed';
const CURSOR_KEY = 'events-cursor';

export async function readFeed(): Promise<EventFeed> {
  return (await readState<EventFeed>(FEED_KEY)) ?? { events: [], unread: 0 };
}

export async function writeFeed(feed: EventFeed): Promise<void> {
  await writeState(FEED_KEY, feed);
}

export async function readCursor(now: () => number = Date.now): Promise<EventCursor> {
  const stored = await readState<EventCursor>(CURSOR_KEY);
  if (stored) return stored;
  const fresh: EventCursor = { since: new Date(now()).toISOString() };
  await writeState(CURSOR_KEY, fresh);
  return fresh;
}

export async function updateCursor(change: Partial<EventCursor>): Promise<EventCursor> {
  const next = { ...(await readCursor()), ...change };
  await writeState(CURSOR_KEY, next);
  return next;
}

export interface MergeResult {
  feed: EventFeed;
  /** Events not seen before, newest last, in the order they arrived. */
  fresh: RecentEvent[];
  /** Of those, the ones that happened after the extension began watching (they count and notify). */
  news: RecentEvent[];
}

/** What of an event's `data` is kept: this many entries at most, each a scalar. */
export const EVENT_DATA_LIMITS = { entries: 12, keyChars: 64, stringChars: 200 } as const;

/**
 * The part of an event's `data` the extension uses (the Events list's summary, a completion's
 * backtest id and figures): the first few scalar entries, with short keys and short strings.
 * Anything else (nested objects, arrays, long strings, padding) is left out before the event is
 * stored, posted to a panel or notified, so each kept event is small whatever the service sent.
 * A long string is dropped, never cut: a cut id would name something else.
 */
export function compactEventData(data: unknown): Record<string, string | number | boolean> | undefined {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const kept: Record<string, string | number | boolean> = {};
  let count = 0;
  for (const key in data) {
    if (count >= EVENT_DATA_LIMITS.entries) break;
    if (!Object.prototype.hasOwnProperty.call(data, key) || key.length > EVENT_DATA_LIMITS.keyChars) continue;
    const value = (data as Record<string, unknown>)[key];
    const scalar =
      typeof value === 'number' ||
      typeof value === 'boolean' ||
      (typeof value === 'string' && value.length <= EVENT_DATA_LIMITS.stringChars);
    if (!scalar) continue;
    // A service that echoes the API key in an event must not hand it to the feed, a page or a
    // notification: such a field is dropped (8 characters in a row, in any disguise, lib/log).
    if (carriesSecretInAnyForm(key) || (typeof value === 'string' && carriesSecretInAnyForm(value))) continue;
    kept[key] = value;
    count++;
  }
  return kept;
}

/** Adds events to the feed: deduplicated by id, newest first, bounded; pure so it is table-tested. */
export function mergeEvents(
  feed: EventFeed,
  incoming: readonly ServiceEvent[],
  via: EventTransport,
  since: string,
  receivedAt: string,
): MergeResult {
  const seen = new Set(feed.events.map((event) => event.id));
  const fresh: RecentEvent[] = [];
  for (const event of incoming) {
    if (seen.has(event.id)) continue;
    seen.add(event.id);
    fresh.push({ ...event, data: compactEventData(event.data), via, receivedAt });
  }
  const sinceMs = Date.parse(since);
  const news = fresh.filter((event) => {
    const at = Date.parse(event.at);
    return !Number.isFinite(sinceMs) || !Number.isFinite(at) || at >= sinceMs;
  });
  const events = [...fresh.slice().reverse(), ...feed.events].slice(0, RECENT_EVENTS_MAX);
  return { feed: { events, unread: feed.unread + news.length }, fresh, news };
}
