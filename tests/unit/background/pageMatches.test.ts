import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Playbook } from '@/lib/api/schemas';
import { forgetPageTickers, registerPageMatchHandlers } from '@/lib/background/pageMatches';
import { readCache } from '@/lib/api/service';
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
  vi.spyOn(fakeBrowser.tabs, 'get').mockImplementation((id: number) =>
    Promise.resolve({ id, url: tabUrl } as never),
  );
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
    // Another tab reported nothing: nothing matches there.
    expect(await registry.dispatch({ type: 'getPageMatches', payload: { tabId: 6 } }, POPUP)).toEqual({
      ok: true,
      value: { tickers: [], matches: [] },
    });
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
