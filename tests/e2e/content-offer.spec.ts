import type { Page } from '@playwright/test';
import { expect, test, type ExtensionHandle } from './fixtures';
import { axNodes, boxOf, clickByRole, OFFER, offerCount } from './helpers/offer';

/** The tickers the extension finds on `finance`, as "On this page" asks for them (the user's view, not the page's). */
async function tickersSeen(extension: ExtensionHandle, finance: Page): Promise<string[]> {
  const surface = await extension.open('options.html');
  try {
    await finance.bringToFront();
    return await surface.evaluate(async () => {
      const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
      const answer = await chrome.runtime.sendMessage({ type: 'getPageMatches', payload: { tabId: tab.id } });
      return answer.ok ? (answer.value.tickers as string[]) : [];
    });
  } finally {
    await surface.close();
  }
}

test('the offer sits in a closed shadow root, fixed to the corner, without moving the page', async ({
  context,
  extension,
  pages,
}) => {
  await extension.configure();
  const page = await context.newPage();
  await page.goto(pages.url('quote-aapl.html'));
  await expect.poll(() => offerCount(page)).toBe(1);
  const host = await page.evaluate(() => {
    const element = document.querySelector('playbook-companion-offer');
    const box = element?.getBoundingClientRect();
    return {
      found: !!element,
      shadowRoot: element?.shadowRoot ?? null,
      height: box?.height,
      width: box?.width,
    };
  });
  // The page sees only an empty host: no shadow root to script, no box to push its content around.
  expect(host).toEqual({ found: true, shadowRoot: null, height: 0, width: 0 });
  const box = await boxOf(page, 'button', OFFER);
  const viewport = page.viewportSize() ?? { width: 1280, height: 720 };
  expect(box?.left).toBeGreaterThan(viewport.width / 2);
  expect(box?.top).toBeGreaterThan(viewport.height / 2);
  // The offer shows only its own words, the same on every page; the detected ticker
  // goes to the user's "On this page".
  expect(await axNodes(page, 'StaticText', 'AAPL')).toHaveLength(0);
  expect(await tickersSeen(extension, page)).toEqual(['AAPL']);
});

test('only the top frame offers the button', async ({ context, extension, pages }) => {
  await extension.configure();
  const page = await context.newPage();
  await page.goto(pages.url('framed.html'));
  await expect(page.frameLocator('iframe').getByRole('heading', { name: 'Apple Inc. (AAPL)' })).toBeVisible();
  await expect.poll(() => offerCount(page)).toBe(1);
  await page.waitForTimeout(500);
  expect(await offerCount(page)).toBe(1);
});

test('dismissing hides the offer on that site and remembers it; other sites still get it', async ({
  context,
  extension,
  pages,
}) => {
  await extension.configure();
  const page = await context.newPage();
  await page.goto(pages.url('quote-aapl.html'));
  await expect.poll(() => offerCount(page)).toBe(1);
  await clickByRole(page, 'button', 'Hide on this site');
  await expect.poll(() => offerCount(page)).toBe(0);

  // Another host (same server, other name) still gets the offer: the positive control for "remembered".
  const other = await context.newPage();
  await other.goto(pages.url('quote-aapl.html').replace('127.0.0.1', 'localhost'));
  await expect.poll(() => offerCount(other)).toBe(1);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Apple Inc. (AAPL)' })).toBeVisible();
  await page.waitForTimeout(1_000);
  expect(await offerCount(page)).toBe(0);
});

for (const [order, query] of [
  ['view drawn, then address changed', ''],
  ['address changed, then view drawn', '?late'],
] as const)
  test(`a single-page-app navigation (${order}) re-detects the tickers, and the draft is built at the click`, async ({
    context,
    extension,
    pages,
  }) => {
    await extension.configure();
    const page = await context.newPage();
    await page.goto(pages.url(`spa-quote.html${query}`));
    await expect.poll(() => offerCount(page)).toBe(1);
    expect(await tickersSeen(extension, page)).toEqual(['NVDA']);
    await page.getByRole('button', { name: 'Next quote' }).click();
    await expect.poll(() => tickersSeen(extension, page)).toEqual(['MSFT']);

    const confirmOpened = context.waitForEvent('page', {
      predicate: (p) => p.url().includes('/confirm.html'),
    });
    await clickByRole(page, 'button', OFFER);
    const confirm = await confirmOpened;
    const dialog = confirm.getByRole('dialog', { name: 'Confirm' });
    await expect(dialog.getByLabel('Tickers')).toHaveValue('MSFT');
    await expect(dialog.getByLabel('Title')).toHaveValue(/Microsoft/);
    await expect(dialog).toContainText('symbol=MSFT');
  });
