import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Playbook } from '@/lib/api/schemas';
import { registerPageMatchHandlers } from '@/lib/background/pageMatches';
import { cachedFirstPages } from '@/lib/background/readModel';
import { keyFingerprint } from '@/lib/store/apiKey';
import {
  clearPopupSnapshot,
  snapshotBinding,
  snapshotGeneration,
  writeCachedView,
} from '@/lib/store/snapshot';
import { PAGE_TICKERS_QUERY } from '@/lib/messaging/pageTickers';
import { setLogSink } from '@/lib/log';
import { createHandlerRegistry, type HandlerRegistry } from '@/lib/messaging';
import { DEFAULT_SETTINGS, saveSettings } from '@/lib/store/settings';
import { playbook as aPlaybook } from '../pages/popup/fixtures';

// The read model's cache read, counted (and held) by the tests below.
vi.mock('@/lib/background/readModel', async (original) => {
  const model = await original<typeof import('@/lib/background/readModel')>();
  return { ...model, cachedFirstPages: vi.fn(model.cachedFirstPages) };
});

const self = {
  extensionId: fakeBrowser.runtime.id,
  extensionOrigin: `chrome-extension://${fakeBrowser.runtime.id}`,
};
const POPUP = { id: self.extensionId, origin: self.extensionOrigin };
/** Counts of a tab's reports: after 5 ms of quiet, at most one per 40 ms (real time, no fake clock: the cache is IndexedDB). */
const REREADS = { settleMs: 5, intervalMs: 40 };
const settled = () => new Promise((resolve) => setTimeout(resolve, 4 * REREADS.intervalMs));
const PAGE_URL = 'https://finance.example/news/nvda';
const contentScript = (tabId: number, frameId = 0) => ({
  id: self.extensionId,
  url: PAGE_URL,
  origin: 'https://finance.example',
  tab: { id: tabId },
  frameId,
});

/** The popup tests' playbook, with the tickers these matches are about. */
function playbook(id: string, title: string, tickers: string[]): Playbook {
  return { ...aPlaybook(id, title), tickers };
}

let registry: HandlerRegistry;
/** What the tab's content script answers; `undefined`: no content script runs in the tab. */
let answer: unknown;
let asked: { tabId: number; message: unknown; options: unknown }[];

beforeEach(async () => {
  fakeBrowser.reset();
  await saveSettings(DEFAULT_SETTINGS);
  await clearPopupSnapshot();
  const binding = snapshotBinding(DEFAULT_SETTINGS.serviceUrl, await keyFingerprint());
  const cached = {
    items: [
      playbook('pb_1', 'Data-centre thesis', ['nvda', 'AMD']),
      playbook('pb_2', 'Apple services', ['AAPL']),
      playbook('pb_3', 'Chips basket', ['AMD', 'NVDA', 'TSM']),
    ],
    nextCursor: null,
    hasMore: false,
    source: 'network' as const,
    fetchedAt: 1,
  };
  await writeCachedView({ scope: 'mine' }, binding, cached, snapshotGeneration());
  answer = { tickers: ['NVDA'] };
  asked = [];
  vi.spyOn(fakeBrowser.tabs, 'sendMessage').mockImplementation(
    (tabId: number, message: unknown, options: unknown) => {
      asked.push({ tabId, message, options });
      return answer === undefined
        ? Promise.reject(new Error('Could not establish connection. Receiving end does not exist.'))
        : Promise.resolve(answer);
    },
  );
  registry = createHandlerRegistry(self);
  registerPageMatchHandlers(registry, REREADS);
  return setLogSink(() => undefined);
});

afterEach(() => vi.restoreAllMocks());

function count(tickers: unknown, frameId = 0) {
  return registry.dispatch({ type: 'countPageMatches', payload: { tickers } }, contentScript(5, frameId));
}

const matches = (tabId?: number) => registry.dispatch({ type: 'getPageMatches', payload: { tabId } }, POPUP);
const nothing = { ok: true, value: { tickers: [], matches: [] } };

describe('On this page', () => {
  it('asks the tab for its tickers when the popup asks, and tells the popup the titles', async () => {
    expect(await matches(5)).toEqual({
      ok: true,
      value: {
        tickers: ['NVDA'],
        matches: [
          { id: 'pb_1', title: 'Data-centre thesis', tickers: ['NVDA'] },
          { id: 'pb_3', title: 'Chips basket', tickers: ['NVDA'] },
        ],
      },
    });
    expect(asked).toEqual([{ tabId: 5, message: PAGE_TICKERS_QUERY, options: undefined }]);
    // Asked anew each time: the page may show another quote now (a single-page app, Back).
    answer = { tickers: ['AAPL'] };
    expect(await matches(5)).toMatchObject({ ok: true, value: { matches: [{ id: 'pb_2' }] } });
    // No active tab: nothing is asked.
    expect(await matches()).toEqual(nothing);
    expect(asked).toHaveLength(2);
    // Nothing is kept per tab.
    expect(await fakeBrowser.storage.session.get(null)).toEqual({});
  });

  it("tells the content script nothing of the count: the same answer, and the count on its tab's badge", async () => {
    expect(await count(['NVDA'])).toEqual({ ok: true, value: { scheduled: true } });
    await vi.waitFor(async () => expect(await fakeBrowser.action.getBadgeText({ tabId: 5 })).toBe('2'));
    // The tooltip says it in words, in the UI language: only the user sees it.
    await vi.waitFor(async () =>
      expect(await fakeBrowser.action.getTitle({ tabId: 5 })).toBe('2 of your playbooks track this page'),
    );
    expect(await count(['MSFT'])).toEqual({ ok: true, value: { scheduled: true } });
    // No match: the tab shows the global badge (unread events) again.
    await vi.waitFor(async () => expect(await fakeBrowser.action.getBadgeText({ tabId: 5 })).not.toBe('2'));
    await vi.waitFor(async () => expect(await fakeBrowser.action.getTitle({ tabId: 5 })).toBe(''));
  });

  it('counts a burst of reports from one tab once or twice, with the newest tickers, never once each', async () => {
    const reads = vi.mocked(cachedFirstPages);
    reads.mockClear();
    const badge = vi.spyOn(fakeBrowser.action, 'setBadgeText');
    // A page that pushes 50 states and reports each one (the last one names NVDA).
    for (let report = 0; report < 50; report++) await count(report % 2 ? ['NVDA'] : ['AAPL']);
    await vi.waitFor(() => expect(badge.mock.calls.at(-1)).toEqual([{ tabId: 5, text: '2' }]));
    await settled();
    // One match pass reads the cached list views once: at most two passes here, not fifty.
    expect(badge.mock.calls.length).toBeLessThanOrEqual(2);
    expect(reads.mock.calls.length).toBeLessThanOrEqual(2);
    // Another tab is counted on its own.
    await registry.dispatch({ type: 'countPageMatches', payload: { tickers: ['AAPL'] } }, contentScript(6));
    await vi.waitFor(() => expect(badge.mock.calls.at(-1)).toEqual([{ tabId: 6, text: '1' }]));
  });

  it('drops a count that a newer report overtook', async () => {
    await settled(); // Counts the tests above scheduled are over.
    const badge = vi.spyOn(fakeBrowser.action, 'setBadgeText');
    const report = (tickers: string[]) =>
      registry.dispatch({ type: 'countPageMatches', payload: { tickers } }, contentScript(7));
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const reads = vi.mocked(cachedFirstPages);
    const { cachedFirstPages: read } = await vi.importActual<typeof import('@/lib/background/readModel')>(
      '@/lib/background/readModel',
    );
    reads.mockClear();
    reads.mockImplementationOnce(async (views) => {
      await held;
      return read(views);
    });
    await report(['NVDA']);
    await vi.waitFor(() => expect(reads).toHaveBeenCalled());
    await report(['MSFT']);
    release();
    await vi.waitFor(() => expect(badge).toHaveBeenCalled());
    await settled();
    // The NVDA count (2) answered for a view the page had left: only the MSFT one (none) shows.
    expect(badge.mock.calls).toEqual([[{ tabId: 7, text: null }]]);
  });

  // Each bad answer names NVDA too: were it read unchecked, it would match.
  it.each([
    ['no content script runs in the tab (not a finance page)', undefined],
    ['the answer is not an object', 'NVDA'],
    ['the tickers are not a list', { tickers: 'NVDA' }],
    ['a ticker is not a symbol', { tickers: ['NVDA', '<img src=x>'] }],
    [
      'there are more tickers than a draft holds',
      { tickers: ['NVDA', ...Array.from({ length: 10 }, (_, i) => `T${i}`)] },
    ],
    ['the answer carries more than tickers', { tickers: ['NVDA'], titles: ['Data-centre thesis'] }],
  ])('lists nothing when %s', async (_, bad) => {
    answer = bad;
    expect(await matches(5)).toEqual(nothing);
  });

  it('does not wait for a page slow to answer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      vi.mocked(fakeBrowser.tabs.sendMessage).mockImplementationOnce(() => new Promise(() => undefined));
      const slow = matches(5);
      await vi.advanceTimersByTimeAsync(999);
      let settled = false;
      void slow.then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(0);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await slow).toEqual(nothing);
    } finally {
      vi.useRealTimers();
    }
    expect(await matches(5)).toMatchObject({ ok: true, value: { tickers: ['NVDA'] } });
  });

  it('refuses a count from a sub-frame, from a page, and beyond its bounds', async () => {
    expect(await count(['NVDA'], 3)).toMatchObject({ ok: false, error: { code: 'sender-not-allowed' } });
    expect(
      await registry.dispatch(
        { type: 'countPageMatches', payload: { tickers: ['NVDA'] } },
        { id: self.extensionId, url: PAGE_URL },
      ),
    ).toMatchObject({ ok: false, error: { code: 'sender-not-allowed' } });
    expect(await count(Array.from({ length: 11 }, (_, i) => `T${i}`))).toMatchObject({
      ok: false,
      error: { code: 'malformed-message' },
    });
    expect(await count(['<img src=x>'])).toMatchObject({ ok: false, error: { code: 'malformed-message' } });
    // The page's address is no longer part of the message: a strict schema refuses it.
    expect(
      await registry.dispatch(
        { type: 'countPageMatches', payload: { url: PAGE_URL, tickers: ['NVDA'] } },
        contentScript(5),
      ),
    ).toMatchObject({ ok: false, error: { code: 'malformed-message' } });
  });
});
