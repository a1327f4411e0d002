import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Playbook } from '@/lib/api/schemas';
import { forgetPageTickers, registerPageMatchHandlers } from '@/lib/background/pageMatches';
import { readCache } from '@/lib/api/service';
import { PAGE_ADDRESS_QUERY } from '@/lib/messaging/pageAddress';
import { setLogSink } from '@/lib/log';
import { createHandlerRegistry, type HandlerRegistry } from '@/lib/messaging';
import { DEFAULT_SETTINGS, saveSettings } from '@/lib/store/settings';
import { playbook as aPlaybook } from '../pages/popup/fixtures';

const self = {
  extensionId: fakeBrowser.runtime.id,
  extensionOrigin: `chrome-extension://${fakeBrowser.runtime.id}`,
};
const POPUP = { id: self.extensionId, origin: self.extensionOrigin };
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
let tabUrl: string | undefined;
let answer: unknown;
let asked: { tabId: number; message: unknown; options: unknown }[];

beforeEach(async () => {
  fakeBrowser.reset();
  await saveSettings(DEFAULT_SETTINGS);
  await readCache.clear();
  await readCache.revalidate(`${DEFAULT_SETTINGS.serviceUrl}|listPlaybooks|all`, () =>
    Promise.resolve({
      items: [
        playbook('pb_1', 'Data-centre thesis', ['nvda', 'AMD']),
        playbook('pb_2', 'Apple services', ['AAPL']),
        playbook('pb_3', 'Chips basket', ['AMD', 'NVDA', 'TSM']),
      ],
      nextCursor: null,
      hasMore: false,
    }),
  );
  tabUrl = PAGE_URL;
  // The tab's content script answers the page it shows; without one (tabUrl undefined) the send fails.
  asked = [];
  vi.spyOn(fakeBrowser.tabs, 'sendMessage').mockImplementation(((
    tabId: number,
    message: unknown,
    options: unknown,
  ) => {
    asked.push({ tabId, message, options });
    return tabUrl === undefined
      ? Promise.reject(new Error('Could not establish connection. Receiving end does not exist.'))
      : Promise.resolve(answer ?? { url: tabUrl });
  }));
  answer = undefined;
  registry = createHandlerRegistry(self);
  registerPageMatchHandlers(registry);
  return setLogSink(() => undefined);
});

async function report(tabId: number, tickers: string[], frameId = 0) {
  return registry.dispatch(
    { type: 'reportPageTickers', payload: { url: `${PAGE_URL}#comments`, tickers } },
    contentScript(tabId, frameId),
  );
}

describe('On this page', () => {
  it('tells the content script a count and the popup the titles, from the cache', async () => {
    expect(await report(5, ['NVDA'])).toEqual({ ok: true, value: { matches: 2 } });
    const answer = await registry.dispatch({ type: 'getPageMatches', payload: { tabId: 5 } }, POPUP);
    expect(answer).toEqual({
      ok: true,
      value: {
        tickers: ['NVDA'],
        matches: [
          { id: 'pb_1', title: 'Data-centre thesis', tickers: ['NVDA'] },
          { id: 'pb_3', title: 'Chips basket', tickers: ['NVDA'] },
        ],
      },
    });
    // The page was asked of the content script in the tab's top frame.
    expect(asked).toEqual([{ tabId: 5, message: PAGE_ADDRESS_QUERY, options: { frameId: 0 } }]);
    // Another tab reported nothing: nothing matches there, and nothing is asked.
    expect(await registry.dispatch({ type: 'getPageMatches', payload: { tabId: 6 } }, POPUP)).toEqual({
      ok: true,
      value: { tickers: [], matches: [] },
    });
    expect(asked).toHaveLength(1);
  });

  const nothing = { ok: true, value: { tickers: [], matches: [] } };
  const matches = () => registry.dispatch({ type: 'getPageMatches', payload: { tabId: 5 } }, POPUP);

  it.each([
    ['no content script answers (the tab left the finance pages)', () => (tabUrl = undefined)],
    ['the content script is on another page', () => (tabUrl = 'https://finance.example/news/amd')],
    ['the answer is malformed', () => (answer = { url: 42 })],
    ['the answer has more than an address', () => (answer = { url: PAGE_URL, tickers: ['AAPL'] })],
    ['the answer is over the bound', () => (answer = { url: `${PAGE_URL}?${'a'.repeat(5000)}` })],
  ])('forgets what the tab reported when %s', async (_, change) => {
    await report(5, ['NVDA']);
    change();
    expect(await matches()).toEqual(nothing);
    expect(await fakeBrowser.storage.session.get(null)).toEqual({});
  });

  it('keeps a page that is slow to answer, but does not wait for it', async () => {
    await report(5, ['NVDA']);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      vi.mocked(fakeBrowser.tabs.sendMessage).mockImplementationOnce(() => new Promise(() => undefined));
      const slow = matches();
      await vi.advanceTimersByTimeAsync(1000);
      expect(await slow).toEqual(nothing);
    } finally {
      vi.useRealTimers();
    }
    // Still reported: the next ask, answered, lists the matches.
    expect(await matches()).toMatchObject({ ok: true, value: { tickers: ['NVDA'] } });
  });

  it('forgets a tab that navigated away or closed', async () => {
    await report(5, ['AAPL']);
    tabUrl = 'https://elsewhere.example/';
    expect(await registry.dispatch({ type: 'getPageMatches', payload: { tabId: 5 } }, POPUP)).toEqual({
      ok: true,
      value: { tickers: [], matches: [] },
    });
    tabUrl = PAGE_URL;
    await report(5, ['AAPL']);
    await forgetPageTickers(5);
    expect(await fakeBrowser.storage.session.get(null)).toEqual({});
  });

  it('refuses a sub-frame, a page and a report beyond its bounds', async () => {
    expect(await report(5, ['NVDA'], 3)).toMatchObject({ ok: false, error: { code: 'sender-not-allowed' } });
    expect(
      await registry.dispatch(
        { type: 'reportPageTickers', payload: { url: PAGE_URL, tickers: ['NVDA'] } },
        { id: self.extensionId, url: PAGE_URL },
      ),
    ).toMatchObject({ ok: false, error: { code: 'sender-not-allowed' } });
    expect(
      await report(
        5,
        Array.from({ length: 11 }, (_, i) => `T${i}`),
      ),
    ).toMatchObject({
      ok: false,
      error: { code: 'malformed-message' },
    });
    expect(await report(5, ['<img src=x>'])).toMatchObject({
      ok: false,
      error: { code: 'malformed-message' },
    });
  });
});
