import { browser, type Browser } from 'wxt/browser';
import { abortableSleep } from '@/lib/api/retry';
import { eventTypeSchema, serviceEventSchema, type ServiceEvent } from '@/lib/api/schemas';
import { serviceClient } from '@/lib/api/service';
import { log } from '@/lib/log';
import { getSettings, isServiceConfigured } from '@/lib/store/settings';
import {
  mergeEvents,
  readCursor,
  RECENT_EVENTS_MAX,
  readFeed,
  updateCursor,
  writeFeed,
  type EventFeed,
  type EventTransport,
  type RecentEvent,
} from './feed';
import {
  createNotificationGate,
  notificationFor,
  NOTIFIED_TYPES,
  summaryNotification,
  withResult,
} from './notifications';
import { backtestNotificationLine } from '@/lib/backtests/reads';
import { checkReminders } from '@/lib/catalysts/watch';
import { backtestIdOf } from '@/lib/contract/backtest';
import type { EventsPortMessage } from './port';
import { createBoundedSseParser, SseLimitError } from './sse';
import { ALARMS, NOTIFICATIONS } from '@/lib/store/inventory';

/**
 * Live events without webhooks, as the interface prescribes: while a side panel holds an
 * `events` port, the worker streams `streamEvents` (SSE, resuming with Last-Event-ID); otherwise
 * an alarm polls `listEvents` from the stored cursor. Both feed one deduplicated list, the badge
 * and the notifications. The switchboard (lib/background) hears the alarm, the port and the
 * notification clicks and calls this module's handlers.
 */
export const POLL_ALARM = ALARMS.eventsPoll.name;
/** Chrome refuses shorter periods for packed extensions; settings cannot go below it. */
export const MIN_POLL_MINUTES = 1;
const NOTIFICATION_PREFIX = NOTIFICATIONS.event.idPrefix;
const STREAM_BACKOFF_MS = { first: 1_000, max: 30_000 };

const ports = new Set<Browser.runtime.Port>();
/** Ports that follow draft changes only (the popup's): they get `outbox` messages and start no stream. */
const outboxPorts = new Set<Browser.runtime.Port>();
let stream: AbortController | undefined;
// Ingestion is serialized so a stream event and a poll page cannot interleave their read-modify-write.
let ingestion: Promise<unknown> = Promise.resolve();

function serialized<T>(task: () => Promise<T>): Promise<T> {
  const run = ingestion.then(task, task);
  ingestion = run.catch(() => undefined);
  return run;
}

/** Sends a message to every open side panel (their events port), and a draft change to a popup too. */
export function broadcast(message: EventsPortMessage): void {
  for (const held of message.type === 'outbox' ? [ports, outboxPorts] : [ports])
    for (const port of held) {
      try {
        port.postMessage(message);
      } catch {
        held.delete(port);
      }
    }
}

function parseEvents(raw: readonly unknown[]): ServiceEvent[] {
  const events: ServiceEvent[] = [];
  for (const item of raw) {
    const parsed = serviceEventSchema.safeParse(item);
    if (parsed.success) events.push(parsed.data);
    else log.warn('events.malformed', { issues: parsed.error.issues.length });
  }
  return events;
}

async function setBadge(unread: number): Promise<void> {
  const action =
    browser.action ?? (browser as unknown as { browserAction?: typeof browser.action }).browserAction;
  if (!action) return;
  await action.setBadgeText({ text: unread > 0 ? (unread > 99 ? '99+' : String(unread)) : '' });
}

/** The playbook's title as the validated API returned it, or undefined when it cannot be read now. */
async function playbookTitle(playbookId: string): Promise<string | undefined> {
  try {
    const client = await serviceClient();
    return (await client.call('getPlaybook', { playbookId })).data.title;
  } catch {
    return undefined;
  }
}

/** What a click on an event notification opens: its playbook, and the backtest a completion names. */
export interface EventNotificationTarget {
  playbookId: string;
  backtestId?: string;
}

/**
 * An event notification's id: `prefix + playbook id [+ "," + backtest id] + | + event id`, the ids
 * URI-encoded (which encodes "," and "|"), so the click needs no stored mapping.
 */
export function eventNotificationId(
  event: Pick<RecentEvent, 'id' | 'playbook_id' | 'type' | 'data'>,
): string {
  const backtestId = event.type === 'backtest.completed' ? backtestIdOf(event.data) : undefined;
  const target =
    encodeURIComponent(event.playbook_id) + (backtestId ? `,${encodeURIComponent(backtestId)}` : '');
  return `${NOTIFICATION_PREFIX}${target}|${event.id}`;
}

/** The playbook (and backtest) an event notification opens, or undefined when its id is not one of ours. */
export function targetOfEventNotification(notificationId: string): EventNotificationTarget | undefined {
  if (!notificationId.startsWith(NOTIFICATION_PREFIX)) return undefined;
  const target = notificationId.slice(NOTIFICATION_PREFIX.length).split('|')[0] ?? '';
  const [playbook = '', backtest] = target.split(',');
  try {
    const playbookId = decodeURIComponent(playbook);
    if (!playbookId) return undefined;
    const backtestId =
      backtest === undefined ? undefined : backtestIdOf({ backtest_id: decodeURIComponent(backtest) });
    return backtestId ? { playbookId, backtestId } : { playbookId };
  } catch {
    return undefined;
  }
}

function showNotification(id: string, text: { title: string; message: string }) {
  return browser.notifications.create(id, {
    type: 'basic',
    iconUrl: browser.runtime.getURL('/icon/128.png'),
    title: text.title,
    message: text.message,
  });
}

/** The id of a summary: no playbook in it, so a click opens nothing in particular. */
const SUMMARY_NOTIFICATION_ID = `${NOTIFICATION_PREFIX}|summary`;
/** Playbooks held back by a full window, to be counted in the next notification (bounded). */
const MAX_PENDING_PLAYBOOKS = 10_000;
const pendingPlaybooks = new Set<string>();
// In memory on purpose: a worker restart only reopens the window, it loses no event (the badge has them).
const notificationGate = createNotificationGate();

/**
 * One notification at most per batch, and few per minute across batches: a batch with one event
 * names its playbook (one title look-up); anything more, or anything a full window held back,
 * becomes one summary. Built from known fields and a title the API schema checked only.
 */
async function notifyBatch(notified: readonly RecentEvent[]): Promise<void> {
  for (const event of notified) {
    if (pendingPlaybooks.size >= MAX_PENDING_PLAYBOOKS) break;
    pendingPlaybooks.add(event.playbook_id);
  }
  if (!notificationGate.admit(Date.now())) {
    log.info('events.notifications-deferred', { pending: pendingPlaybooks.size });
    return;
  }
  const playbooks = pendingPlaybooks.size;
  pendingPlaybooks.clear();
  const [only] = notified;
  if (notified.length === 1 && playbooks === 1 && only) {
    const text = notificationFor(only.type, await playbookTitle(only.playbook_id));
    // The result in one line, from validated numbers and a ticker-shaped benchmark only (lib/backtests).
    const result =
      only.type === 'backtest.completed'
        ? await backtestNotificationLine(only.data, only.playbook_id)
        : undefined;
    await showNotification(eventNotificationId(only), {
      title: text.title,
      message: result ? withResult(result, text.message) : text.message,
    });
    return;
  }
  await showNotification(SUMMARY_NOTIFICATION_ID, summaryNotification(playbooks));
}

/** Stores new events, counts them on the badge, notifies the ones that matter and tells open panels. */
export function ingestEvents(incoming: readonly ServiceEvent[], via: EventTransport) {
  return serialized(async () => {
    const cursor = await readCursor();
    const result = mergeEvents(await readFeed(), incoming, via, cursor.since, new Date().toISOString());
    if (result.fresh.length === 0) return result;
    await writeFeed(result.feed);
    log.info('events.received', { via, fresh: result.fresh.length, news: result.news.length });
    await setBadge(result.feed.unread).catch((error: unknown) => log.warn('events.badge-failed', { error }));
    // One message per batch: a flood of events is a few posts to the panel, not one per event.
    broadcast({
      type: 'events',
      events: result.fresh.slice(-RECENT_EVENTS_MAX),
      unread: result.feed.unread,
    });
    // A catalyst moved, was confirmed or cancelled: its reminder rules run again (not awaited: network).
    if (result.fresh.some((event) => event.type === 'catalyst.changed')) void checkReminders();
    const notified = result.news.filter((event) => NOTIFIED_TYPES.has(event.type));
    if (notified.length > 0)
      await notifyBatch(notified).catch((error: unknown) => log.warn('events.notify-failed', { error }));
    return result;
  });
}

/** One catch-up of `listEvents` from the stored cursor (the alarm, the Events tab, a port connecting). */
export async function pollEvents(): Promise<{ received: number }> {
  // Before the first-run setup saved a service there is nothing to poll.
  if (!isServiceConfigured(await getSettings())) return { received: 0 };
  const client = await serviceClient();
  const start = await readCursor();
  let received = 0;
  for await (const page of client.paginate<unknown>('listEvents', {
    query: start.cursor ? { cursor: start.cursor } : {},
    maxPages: 10,
  })) {
    const events = parseEvents(page.items);
    received += (await ingestEvents(events, 'poll')).fresh.length;
    await updateCursor({
      ...(page.nextCursor ? { cursor: page.nextCursor } : {}),
      ...(events.length > 0 ? { lastEventId: events[events.length - 1].id } : {}),
    });
  }
  return { received };
}

const KNOWN_EVENT_TYPES: ReadonlySet<string> = new Set(eventTypeSchema.options);

/** One SSE message as a service event: its `event:` must be a known type and match the data's. */
export function eventFromMessage(message: { event?: string; data: string }): ServiceEvent | undefined {
  if (message.event === undefined || !KNOWN_EVENT_TYPES.has(message.event)) {
    log.warn('events.stream-unknown-type', { length: message.event?.length ?? 0 });
    return undefined;
  }
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch {
    log.warn('events.stream-malformed', { type: message.event });
    return undefined;
  }
  const event = parseEvents([data])[0];
  if (event && event.type !== message.event) {
    log.warn('events.stream-type-mismatch', { type: message.event });
    return undefined;
  }
  return event;
}

/** Events one read of the stream may queue before the stream is dropped for a catch-up poll. */
export const MAX_QUEUED_STREAM_EVENTS = 500;

/** The service sent more events in one read than the queue holds: resume by polling from the cursor. */
class StreamQueueFullError extends Error {
  constructor() {
    super(`More than ${MAX_QUEUED_STREAM_EVENTS} events arrived at once.`);
    this.name = 'StreamQueueFullError';
  }
}

/**
 * Reads the stream until it ends, with backpressure: the events of each read are ingested as one
 * batch, and the next read waits for it. A bound broken by the service cancels the stream and
 * throws (the caller backs off and catches up by polling).
 */
async function readStream(response: Response, signal: AbortSignal): Promise<void> {
  if (!response.body) return;
  const queue: ServiceEvent[] = [];
  let queuedThroughId: string | undefined;
  let overflowed = false;
  const parser = createBoundedSseParser({
    onEvent(message) {
      if (overflowed) return;
      const event = eventFromMessage(message);
      if (!event) return;
      if (queue.length >= MAX_QUEUED_STREAM_EVENTS) {
        // Neither queued nor past the cursor: the catch-up poll brings it.
        overflowed = true;
        return;
      }
      queue.push(event);
      if (message.id) queuedThroughId = message.id;
    },
    onDropped(reason) {
      log.warn('events.stream-dropped', { reason });
    },
  });
  const flush = async (): Promise<void> => {
    if (queue.length === 0) return;
    const batch = queue.splice(0);
    const throughId = queuedThroughId;
    queuedThroughId = undefined;
    try {
      await ingestEvents(batch, 'stream');
      if (throughId) await updateCursor({ lastEventId: throughId });
    } catch (error) {
      log.warn('events.ingest-failed', { error });
    }
  };
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener('abort', cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return await flush();
      try {
        parser.feed(value);
      } catch (error) {
        if (error instanceof SseLimitError)
          log.warn('events.stream-aborted', { reason: error.reason, limit: error.limit });
        await flush();
        cancel();
        throw error;
      }
      await flush();
      if (overflowed) {
        log.warn('events.stream-queue-full', { limit: MAX_QUEUED_STREAM_EVENTS });
        cancel();
        throw new StreamQueueFullError();
      }
    }
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}

/** Streams while a panel is open: catch up by polling, then SSE from the last id, reconnecting with backoff. */
async function runStream(signal: AbortSignal): Promise<void> {
  // No service yet: no stream, and no retry loop against a client that cannot be built.
  if (!isServiceConfigured(await getSettings())) return;
  await pollEvents().catch((error: unknown) => log.warn('events.catch-up-failed', { error }));
  let backoff = STREAM_BACKOFF_MS.first;
  while (!signal.aborted) {
    try {
      const { lastEventId } = await readCursor();
      const client = await serviceClient();
      const response = await client.stream('streamEvents', {
        headers: lastEventId ? { 'Last-Event-ID': lastEventId } : {},
        signal,
      });
      broadcast({ type: 'stream', state: 'open' });
      log.info('events.stream-open', { resumed: Boolean(lastEventId) });
      await readStream(response, signal);
      // Only a stream that ended cleanly earns a quick reconnect; a hostile one keeps backing off.
      backoff = STREAM_BACKOFF_MS.first;
    } catch (error) {
      if (signal.aborted) break;
      log.warn('events.stream-failed', { error });
      // A stream that broke a bound would resend the same event from the same Last-Event-ID for ever:
      // a poll skips what does not parse and moves the cursor past it before the stream resumes.
      if (error instanceof SseLimitError || error instanceof StreamQueueFullError)
        await pollEvents().catch((pollError: unknown) =>
          log.warn('events.catch-up-failed', { error: pollError }),
        );
    }
    if (signal.aborted) break;
    broadcast({ type: 'stream', state: 'retrying' });
    // An abort ends the wait early; the loop then stops.
    await abortableSleep(backoff, signal).catch(() => undefined);
    backoff = Math.min(backoff * 2, STREAM_BACKOFF_MS.max);
  }
}

function startStream(): void {
  if (stream) return;
  const controller = new AbortController();
  stream = controller;
  runStream(controller.signal)
    .catch((error: unknown) => log.error('events.stream-stopped', { error }))
    .finally(() => {
      if (stream === controller) stream = undefined;
    });
}

function stopStream(): void {
  stream?.abort();
  stream = undefined;
  log.info('events.stream-closed');
}

/** (Re)creates the polling alarm with the period the settings ask for. */
export async function schedulePolling(periodMinutes?: number): Promise<void> {
  const period = periodMinutes ?? Math.max(MIN_POLL_MINUTES, (await getSettings()).pollMinutes);
  const existing = await browser.alarms.get(POLL_ALARM);
  if (existing?.periodInMinutes === period) return;
  await browser.alarms.create(POLL_ALARM, { periodInMinutes: period, delayInMinutes: period });
}

/** An outbox port the switchboard accepted (an extension page's), until it closes. */
export function acceptOutboxPort(port: Browser.runtime.Port): void {
  outboxPorts.add(port);
  port.onDisconnect.addListener(() => outboxPorts.delete(port));
}

/** An events port the switchboard accepted (its sender classified as an extension page): stream while one is open. */
export function acceptEventsPort(port: Browser.runtime.Port): void {
  ports.add(port);
  startStream();
}

/** An events port closed; the last one stops the stream. */
export function dropEventsPort(port: Browser.runtime.Port): void {
  ports.delete(port);
  if (ports.size === 0) stopStream();
}

/** The polling alarm fired. */
export function onPollAlarm(): void {
  // An open panel streams; polling then would only repeat what the stream delivered.
  if (ports.size > 0) return;
  pollEvents().catch((error: unknown) => log.warn('events.poll-failed', { error }));
  schedulePolling().catch((error: unknown) => log.warn('events.schedule-failed', { error }));
}

/** Work at every worker start; the listeners themselves are the switchboard's. */
export function startEvents(): void {
  schedulePolling().catch((error: unknown) => log.warn('events.schedule-failed', { error }));
  // Fix "since" on the first start: what happened before the extension watched is history, not news.
  readCursor().catch((error: unknown) => log.warn('events.cursor-failed', { error }));
}

/** The feed as the Events tab shows it, with whether a stream is live now. */
export async function eventFeed(): Promise<EventFeed & { streaming: boolean }> {
  return { ...(await readFeed()), streaming: stream !== undefined };
}

/** The Events tab was viewed: the unread count and the badge go back to zero. */
export function clearUnread(): Promise<{ unread: 0 }> {
  return serialized(async () => {
    const feed = await readFeed();
    await writeFeed({ ...feed, unread: 0 });
    await setBadge(0).catch((error: unknown) => log.warn('events.badge-failed', { error }));
    return { unread: 0 as const };
  });
}
