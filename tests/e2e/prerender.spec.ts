import { expect, test } from './fixtures';
import { centreVia, OFFER } from './helpers/offer';
import { rawChromium } from './helpers/rawChromium';
import { EXTENSION_DIR } from './paths';

/**
 * A prerendered page's top frame keeps a frame id other than 0 once the user opens it
 * (w3c/webextensions#396). The offer, the tab's tickers ("On this page") and the draft must work
 * there as on a page loaded the ordinary way. Driven without Playwright, which turns prerendering
 * off.
 */
test('on a prerendered quote page the user opens, the offer is drawn, "On this page" reads its tickers and the draft opens', async ({
  pages,
  sandbox,
}) => {
  const chromium = await rawChromium(EXTENSION_DIR);
  try {
    const attach = async (url: string) => {
      const { targetId } = await chromium.send('Target.createTarget', { url });
      const { sessionId } = await chromium.send('Target.attachToTarget', { targetId, flatten: true });
      return { targetId: targetId as string, session: sessionId as string };
    };
    const targetList = async () =>
      (
        (await chromium.send('Target.getTargets')) as {
          targetInfos: { targetId: string; type: string; url: string }[];
        }
      ).targetInfos;
    // A poll reads through a navigation: an evaluation that a page's load or activation cuts off
    // ("Inspected target navigated or closed") is read again, not a failure.
    const read = (session: string, expression: string) =>
      chromium.evaluate(session, expression).catch((error: Error) => `not read: ${error.message}`);
    await expect
      .poll(async () => (await targetList()).some((info) => info.url.startsWith('chrome-extension://')))
      .toBe(true);
    const extensionHost = new URL(
      (await targetList()).find((info) => info.url.startsWith('chrome-extension://'))?.url ?? '',
    ).host;
    // Pointed at the test's sandbox with its demo key, as the options page saves them.
    const setup = await attach(`chrome-extension://${extensionHost}/options.html`);
    const configure = `(async () => {
      if (!globalThis.chrome?.runtime?.sendMessage) return 'loading';
      const send = (type, payload) => chrome.runtime.sendMessage({ type, payload });
      const saved = await send('saveSettings', ${JSON.stringify({ serviceUrl: sandbox.baseUrl, apiUrl: sandbox.apiUrl })});
      const key = await send('saveApiKey', ${JSON.stringify({ key: sandbox.demoKey })});
      return saved.ok && key.ok ? 'saved' : JSON.stringify([saved, key]);
    })()`;
    await expect.poll(() => read(setup.session, configure)).toBe('saved');
    await chromium.send('Target.closeTarget', { targetId: setup.targetId });
    // One tab: the browser's first one is closed, so the quote page is the only other tab later.
    const before = await targetList();
    // Created, not attached to, until the quote page is prerendered.
    const { targetId } = await chromium.send('Target.createTarget', {
      url: pages.url('prerender-start.html'),
    });
    // (One may be gone already: the settings page closed above can still be listed.)
    for (const info of before.filter((other) => other.type === 'page'))
      await chromium.send('Target.closeTarget', { targetId: info.targetId }).catch(() => undefined);
    // Chromium has fetched the quote page as a prerender (a click before that would load it anew).
    await expect.poll(() => pages.prerenders('quote-aapl.html')).toBeGreaterThan(0);
    const { sessionId } = await chromium.send('Target.attachToTarget', { targetId, flatten: true });
    const tab = sessionId as string;
    // Clicked from a task of its own, so this evaluation has answered before the page changes.
    await chromium.evaluate(tab, `setTimeout(() => document.querySelector('a').click(), 0)`);
    await expect.poll(() => read(tab, 'location.pathname')).toBe('/demo/quote-aapl.html');
    // The scenario itself: the page was prerendered, then activated (not loaded on the click).
    const activationStart = await chromium.evaluate(
      tab,
      `performance.getEntriesByType('navigation')[0].activationStart`,
    );
    expect(activationStart).toBeGreaterThan(0);
    await expect
      .poll(() => read(tab, `document.querySelectorAll('playbook-companion-offer').length`))
      .toBe(1);

    const options = await attach(`chrome-extension://${extensionHost}/options.html`);
    const asked = `(async () => {
      if (!globalThis.chrome?.tabs) return null; // the options page is still loading
      const self = await chrome.tabs.getCurrent();
      const tab = (await chrome.tabs.query({})).find((other) => other.id !== self.id && other.id !== undefined);
      const answer = await chrome.runtime.sendMessage({ type: 'getPageMatches', payload: { tabId: tab.id } });
      return answer.ok ? answer.value.tickers : answer;
    })()`;
    await expect.poll(() => read(options.session, asked)).toEqual(['AAPL']);
    await chromium.send('Target.closeTarget', { targetId: options.targetId });

    // The draft: a real (trusted) click on the offer's button, found through the accessibility
    // tree (its shadow root is closed), opens the confirm window with this page's draft.
    const turn = () => centreVia((method, params) => chromium.send(method, params, tab), 'button', OFFER);
    await expect.poll(async () => (await turn()) !== undefined).toBe(true);
    const at = (await turn()) as { x: number; y: number };
    const mouse = (type: string) =>
      chromium.send('Input.dispatchMouseEvent', { type, ...at, button: 'left', clickCount: 1 }, tab);
    await mouse('mouseMoved');
    await mouse('mousePressed');
    await mouse('mouseReleased');
    const confirmWindows = async () =>
      (await targetList()).filter((info) => info.url.includes('/confirm.html')).length;
    await expect.poll(confirmWindows).toBe(1);
    // …and that window holds this page's draft (its title names the quote page's company).
    const confirm = (await targetList()).find((info) => info.url.includes('/confirm.html'));
    const { sessionId: confirmSession } = await chromium.send('Target.attachToTarget', {
      targetId: confirm?.targetId,
      flatten: true,
    });
    await expect
      .poll(() =>
        read(
          confirmSession as string,
          `[...document.querySelectorAll('input')].map((input) => input.value).join(' ')`,
        ),
      )
      .toMatch(/Apple|AAPL/);
  } finally {
    await chromium.close();
  }
});
