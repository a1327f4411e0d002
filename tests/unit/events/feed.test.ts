import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import type { ServiceEvent } from '@/lib/api/schemas';
import { mergeEvents, RECENT_EVENTS_MAX, readFeed, updateCursor } from '@/lib/events/feed';
import { ingestEvents, POLL_ALARM, schedulePolling } from '@/lib/events';
import { clearState } from '@/lib/store/state';

// IndexedDB (fake-indexeddb) outlives fakeBrowser.reset(): start every test from an empty feed.
beforeEach(() => clearState());
afterEach(() => {
  vi.restoreAllMocks();
});

const SINCE = '2026-01-01T00:00:00.000Z';

function event(
  id: string,
  type: ServiceEvent['type'] = 'playbook.updated',
  at = '2026-02-01T00:00:00.000Z',
): ServiceEvent {
  return { id, type, playbook_id: `pb_${id}`, at, data: {} };
}

describe('mergeEvents', () => {
  it('adds new events newest first and counts only those after "since"', () => {
    const result = mergeEvents(
      { events: [], unread: 0 },
      [event('a', 'playbook.created', '2025-12-31T23:59:59.000Z'), event('b'), event('c')],
      'poll',
      SINCE,
      'now',
    );
    expect(result.feed.events.map((e) => e.id)).toEqual(['c', 'b', 'a']);
    expect(result.news.map((e) => e.id)).toEqual(['b', 'c']);
    expect(result.feed.unread).toBe(2);
    expect(result.feed.events.every((e) => e.via === 'poll')).toBe(true);
  });

  it('never counts an id twice, whichever transport brings it again', () => {
    const first = mergeEvents({ events: [], unread: 0 }, [event('a')], 'stream', SINCE, 'now');
    const again = mergeEvents(first.feed, [event('a'), event('a'), event('b')], 'poll', SINCE, 'now');
    expect(again.fresh.map((e) => e.id)).toEqual(['b']);
    expect(again.feed.unread).toBe(2);
    expect(again.feed.events.find((e) => e.id === 'a')?.via).toBe('stream');
  });

  it('keeps a bounded number of events', () => {
    const many = Array.from({ length: RECENT_EVENTS_MAX + 25 }, (_, i) => event(`e${i}`));
    const result = mergeEvents({ events: [], unread: 0 }, many, 'poll', SINCE, 'now');
    expect(result.feed.events).toHaveLength(RECENT_EVENTS_MAX);
    expect(result.feed.events[0].id).toBe(`e${RECENT_EVENTS_MAX + 24}`);
  });

  it.each([['not a date'], ['']])('treats an unreadable "at" (%j) as news rather than losing it', (at) => {
    const result = mergeEvents(
      { events: [], unread: 0 },
      [event('x', 'backtest.completed', at)],
      'poll',
      SINCE,
      'now',
    );
    expect(result.news).toHaveLength(1);
  });
});

describe('ingestEvents', () => {
  it('stores events, sets the badge and notifies only completions and execution changes, one notification a batch', async () => {
    await updateCursor({ since: SINCE });
    const notify = vi.spyOn(browser.notifications, 'create');
    const badge = vi.spyOn(browser.action, 'setBadgeText');
    await ingestEvents(
      [event('1', 'playbook.updated'), event('2', 'backtest.completed'), event('3', 'execution.started')],
      'poll',
    );
    await ingestEvents([event('2', 'backtest.completed'), event('4', 'execution.stopped')], 'stream');
    const feed = await readFeed();
    expect(feed.unread).toBe(4);
    expect(feed.events.map((e) => e.id)).toEqual(['4', '3', '2', '1']);
    expect(badge).toHaveBeenLastCalledWith({ text: '4' });
    const notified = notify.mock.calls.map((call) => call[0] as unknown);
    // The first batch has two to tell: one summary; the second names its one playbook.
    expect(notified).toEqual(['event||summary', 'event|pb_4|4']);
  });

  it('neither counts nor notifies history from before the extension watched', async () => {
    await updateCursor({ since: '2030-01-01T00:00:00.000Z' });
    const notify = vi.spyOn(browser.notifications, 'create');
    await ingestEvents([event('old', 'backtest.completed')], 'poll');
    expect((await readFeed()).unread).toBe(0);
    expect(notify).not.toHaveBeenCalled();
  });
});

describe('schedulePolling', () => {
  it('creates the polling alarm with the given period', async () => {
    await schedulePolling(5);
    expect((await browser.alarms.get(POLL_ALARM))?.periodInMinutes).toBe(5);
    await schedulePolling(2);
    expect((await browser.alarms.get(POLL_ALARM))?.periodInMinutes).toBe(2);
  });

  it('keeps it when unchanged: recreating it would push the next poll a whole period away', async () => {
    await schedulePolling(5);
    const before = await browser.alarms.get(POLL_ALARM);
    const create = vi.spyOn(browser.alarms, 'create');
    await schedulePolling(5);
    expect(create).not.toHaveBeenCalled();
    expect(await browser.alarms.get(POLL_ALARM)).toEqual(before);
  });
});
