import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser, type Browser } from 'wxt/browser';
import type { ServiceEvent } from '@/lib/api/schemas';
import { acceptEventsPort, dropEventsPort, ingestEvents } from '@/lib/events';
import { compactEventData, EVENT_DATA_LIMITS, updateCursor, type RecentEvent } from '@/lib/events/feed';
import { RECENT_EVENTS_MAX, type EventsPortMessage } from '@/lib/events/port';
import { mergeById } from '@/lib/pages/sidepanel/eventsPort';
import { clearState } from '@/lib/store/state';

/**
 * An event flood: notifications are rate-limited across batches and summed
 * up, a title is looked up once per notification at most, and the stream reader waits for each
 * batch to be stored before it reads on (backpressure), so ingestions never pile up.
 */
const lookups = { getPlaybook: 0 };
let openStream: () => Response = () => new Response(new ReadableStream());

vi.mock('@/lib/api/service', () => ({
  serviceClient: () =>
    Promise.resolve({
      call(operationId: string) {
        if (operationId === 'getPlaybook') lookups.getPlaybook += 1;
        return Promise.resolve({ data: { title: 'Momentum' } });
      },
      async *paginate() {
        // No catch-up: the flood comes over the stream.
      },
      stream: () => Promise.resolve(openStream()),
    }),
}));

const SINCE = '2026-01-01T00:00:00.000Z';
const HOUR = 3_600_000;
let clock = Date.parse('2026-03-01T00:00:00.000Z');

function completed(index: number): ServiceEvent {
  return {
    id: `ev_${index}`,
    type: 'backtest.completed',
    playbook_id: `pb_${index}`,
    at: '2026-02-01T00:00:00.000Z',
    data: {},
  };
}

beforeEach(async () => {
  await clearState();
  await updateCursor({ since: SINCE });
  lookups.getPlaybook = 0;
  // Each test starts an hour after the last, so the notification window it inherits is empty.
  clock += HOUR;
  vi.useFakeTimers({ toFake: ['Date'], now: clock });
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('an event flood', () => {
  it('300 events, one per batch: a few notifications, then one summary for the rest', async () => {
    const notify = vi.spyOn(browser.notifications, 'create');
    for (let index = 0; index < 300; index++) await ingestEvents([completed(index)], 'stream');
    expect(notify.mock.calls.length).toBeLessThanOrEqual(3);
    expect(lookups.getPlaybook).toBeLessThanOrEqual(notify.mock.calls.length);

    vi.setSystemTime(Date.now() + 61_000);
    await ingestEvents([completed(300)], 'stream');
    const last = notify.mock.calls[notify.mock.calls.length - 1] as unknown as [
      string,
      Browser.notifications.NotificationOptions,
    ];
    const heldBack = 301 - (notify.mock.calls.length - 1);
    expect(last[1].message).toContain(`${new Intl.NumberFormat().format(heldBack)} playbooks changed`);
    expect(notify.mock.calls.length).toBeLessThanOrEqual(4);
  });

  it('a batch of many notified events is one summary and no title look-up', async () => {
    const notify = vi.spyOn(browser.notifications, 'create');
    await ingestEvents(
      Array.from({ length: 12 }, (_, index) => completed(1_000 + index)),
      'poll',
    );
    expect(notify).toHaveBeenCalledTimes(1);
    expect((notify.mock.calls[0] as unknown as [string, { message: string }])[1].message).toContain(
      '12 playbooks changed',
    );
    expect(lookups.getPlaybook).toBe(0);
  });

  it('1,500 streamed events: the reader waits for each batch, and notifications stay few', async () => {
    const EVENTS = 1_500;
    const PER_CHUNK = 10;
    const notify = vi.spyOn(browser.notifications, 'create');
    const badge = vi.spyOn(browser.action, 'setBadgeText');
    const encoder = new TextEncoder();
    let pulled = 0;
    let maxAhead = 0;
    openStream = () => {
      // The second connection (after the flood ends) stays open and quiet.
      openStream = () => new Response(new ReadableStream());
      return new Response(
        new ReadableStream<Uint8Array>(
          {
            pull(controller) {
              if (pulled * PER_CHUNK >= EVENTS) return controller.close();
              // Chunks handed over but not yet stored: without backpressure this grows to the whole flood.
              maxAhead = Math.max(maxAhead, pulled - badge.mock.calls.length);
              let text = '';
              for (let i = 0; i < PER_CHUNK; i++) {
                const event = completed(2_000 + pulled * PER_CHUNK + i);
                text += `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
              }
              pulled += 1;
              controller.enqueue(encoder.encode(text));
            },
          },
          { highWaterMark: 0 },
        ),
        { headers: { 'Content-Type': 'text/event-stream' } },
      );
    };
    const port = { name: 'events', postMessage: () => undefined } as unknown as Browser.runtime.Port;
    acceptEventsPort(port);
    try {
      await vi.waitFor(() => expect(badge.mock.calls.length).toBe(EVENTS / PER_CHUNK), {
        timeout: 3_000,
        interval: 20,
      });
    } finally {
      dropEventsPort(port);
    }
    expect(maxAhead).toBeLessThanOrEqual(4);
    expect(notify.mock.calls.length).toBeLessThanOrEqual(3);
    expect(lookups.getPlaybook).toBeLessThanOrEqual(1);
  });
});

describe('a flood reaches an open panel in few, small messages', () => {
  it('one post per batch, each event reduced to its short scalar fields', async () => {
    const posted: EventsPortMessage[] = [];
    const port = {
      name: 'events',
      postMessage: (message: EventsPortMessage) => posted.push(message),
    } as unknown as Browser.runtime.Port;
    // Registered without a stream: the mocked client's stream never delivers.
    acceptEventsPort(port);
    try {
      const batch = Array.from({ length: 250 }, (_, index) => ({
        ...completed(9_000 + index),
        data: { backtest_id: `bt_${index}`, total_return: 0.1, padding: 'p'.repeat(4_000), nested: { a: 1 } },
      }));
      await ingestEvents(batch, 'stream');
    } finally {
      dropEventsPort(port);
    }
    const eventPosts = posted.filter((message) => message.type === 'events');
    expect(eventPosts).toHaveLength(1);
    const [post] = eventPosts;
    // The panel keeps what the feed keeps: the newest hundred.
    expect(post.events).toHaveLength(RECENT_EVENTS_MAX);
    expect(post.events.at(-1)!.data).toEqual({ backtest_id: 'bt_249', total_return: 0.1 });
    expect(JSON.stringify(post).length).toBeLessThan(RECENT_EVENTS_MAX * 400);
  });
});

describe('compactEventData', () => {
  it('keeps a bounded number of short scalars and drops, never cuts, long strings', () => {
    const data: Record<string, unknown> = { id: 'x'.repeat(EVENT_DATA_LIMITS.stringChars + 1), ok: true };
    for (let index = 0; index < 50; index++) data[`k${index}`] = index;
    const kept = compactEventData(data)!;
    expect(kept.id).toBeUndefined();
    expect(kept.ok).toBe(true);
    expect(Object.keys(kept)).toHaveLength(EVENT_DATA_LIMITS.entries);
    expect(compactEventData(['a'])).toBeUndefined();
    expect(compactEventData('text')).toBeUndefined();
  });
});

describe('the panel’s event list', () => {
  it('stays at the newest hundred however many batches arrive', () => {
    let events: RecentEvent[] = [];
    for (let batch = 0; batch < 30; batch++) {
      const incoming = Array.from({ length: 50 }, (_, index) => ({
        ...completed(batch * 50 + index),
        at: new Date(Date.UTC(2026, 1, 1, 0, 0, batch * 50 + index)).toISOString(),
        via: 'stream' as const,
        receivedAt: SINCE,
      }));
      events = mergeById(incoming, events);
    }
    expect(events).toHaveLength(RECENT_EVENTS_MAX);
    expect(events[0].id).toBe('ev_1499');
  });
});

describe('an event that echoes the API key', () => {
  it('keeps its other fields and drops the one that carries the key, and a field named by it', async () => {
    const { forgetSecrets, registerSecret } = await import('@/lib/log');
    const key = 'pbk_live_7Qm2Xc9Lr4Tz8Wn1';
    registerSecret(key);
    try {
      const kept = compactEventData({
        playbook_id: 'pb_1',
        title: `Key ${key.slice(9, 17)} leaked`,
        [key.slice(-10)]: 1,
        status: 'completed',
      })!;
      expect(kept).toEqual({ playbook_id: 'pb_1', status: 'completed' });
    } finally {
      forgetSecrets();
    }
  });
});
