import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import type { Sandbox } from '../../sandbox/server';
import { DEMO_USER_ID } from '../../sandbox/store';
import { expect, test, type ExtensionHandle } from './fixtures';
import { COUNT_LAYOUT_SHIFT, layoutShift } from './helpers/layoutShift';
import { offerCount } from './helpers/offer';
import { FIXTURE_PAGES } from './paths';

const TRACKED = 'Zeta test: NVDA inference margins';
const CLOUD = 'Cloud margins: MSFT';

/** Every text the page's accessibility tree shows, the offer's closed shadow root included. */
async function visibleTexts(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
    const { nodes } = await cdp.send('Accessibility.queryAXTree', {
      backendNodeId: root.backendNodeId,
      role: 'StaticText',
    });
    return nodes.filter((node) => !node.ignored).map((node) => String(node.name?.value ?? ''));
  } finally {
    await cdp.detach();
  }
}

/** The popup and the side panel ask for the active tab: put the finance page in front, then load them. */
async function loadBehind(surface: Page, finance: Page): Promise<void> {
  await finance.bringToFront();
  await surface.reload();
}

/**
 * A playbook that tracks NVDA (and with `alsoMsft`, one that tracks MSFT), in the worker's read
 * cache (which matching reads) as after the popup's first list page.
 */
async function trackNvda(
  extension: ExtensionHandle,
  sandbox: Sandbox,
  { alsoMsft = false } = {},
): Promise<void> {
  await extension.configure();
  const tracked = [{ title: TRACKED, thesis: 'Inference demand keeps margins high.', tickers: ['NVDA'] }];
  if (alsoMsft) tracked.push({ title: CLOUD, thesis: 'AI services widen margins.', tickers: ['MSFT'] });
  for (const playbook of tracked)
    sandbox.db.createPlaybook(DEMO_USER_ID, { ...playbook, visibility: 'private' });
  const first = await extension.open('popup.html');
  for (const { title } of tracked) await expect(first.getByRole('button', { name: title })).toBeVisible();
  await first.close();
}

/** What the worker answers an extension page for the active tab: the titles it matched. */
async function matchedTitles(surface: Page): Promise<string[]> {
  return surface.evaluate(async () => {
    const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
    const answer = await chrome.runtime.sendMessage({ type: 'getPageMatches', payload: { tabId: tab.id } });
    if (!answer.ok) throw new Error(answer.error.message);
    return (answer.value.matches as { title: string }[]).map((match) => match.title);
  });
}

test('"On this page" lists the playbooks that track the page in the popup and the side panel, the badge counts them; the page learns nothing', async ({
  context,
  extension,
  pages,
  sandbox,
}) => {
  await context.addInitScript({ content: COUNT_LAYOUT_SHIFT });
  await trackNvda(extension, sandbox);

  const finance = await context.newPage();
  await finance.goto(pages.url('article-nvda.html'));
  await expect.poll(() => offerCount(finance)).toBe(1);
  // The offer says nothing of what the user tracks: neither that matches exist, nor which.
  expect((await visibleTexts(finance)).join('\n')).not.toMatch(/of your playbooks|track/);
  expect((await visibleTexts(finance)).join('\n')).not.toContain(TRACKED);
  expect(await finance.content()).not.toContain(TRACKED);

  const popup = await extension.open('popup.html');
  await loadBehind(popup, finance);
  const popupSection = popup.getByRole('region', { name: 'On this page' });
  await expect(popupSection.getByRole('button', { name: TRACKED })).toBeVisible();
  // It came after the rows were painted, pinned at the bottom: not one row moved for it.
  expect(await layoutShift(popup)).toBe(0);
  // The count is on the tab's toolbar badge too, which only the user sees.
  const badge = await extension.open('options.html');
  await finance.bringToFront();
  await expect
    .poll(() =>
      badge.evaluate(async () => {
        const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
        return chrome.action.getBadgeText({ tabId: tab.id });
      }),
    )
    .toMatch(/^[1-9]\d*$/);
  await badge.close();

  const panel = await extension.open('sidepanel.html');
  await loadBehind(panel, finance);
  const panelSection = panel.getByRole('region', { name: 'On this page' });
  await panelSection.getByRole('button', { name: TRACKED }).click();
  await expect(panel.getByRole('heading', { name: TRACKED })).toBeVisible();

  // A page without tickers shows no section.
  await finance.goto(pages.url('framed.html'));
  await loadBehind(popup, finance);
  await expect(popup.getByRole('button', { name: TRACKED }).first()).toBeVisible();
  await expect(popup.getByRole('region', { name: 'On this page' })).toHaveCount(0);
});

test('"On this page" follows the page: on a finance site without host access, through a single-page navigation, and off the finance pages', async ({
  context,
  extension,
  sandbox,
}) => {
  // A real finance address, answered by the test (no network), with a single-page app's quote:
  // the build's only host access is loopback, so only the tab's content script knows the page.
  // Investing.com's addresses name a company slug, not a ticker: the page's text says which.
  const quote = await readFile(`${FIXTURE_PAGES}/spa-quote.html`, 'utf8');
  await context.route('https://www.investing.com/**', (route) =>
    route.fulfill({ contentType: 'text/html; charset=utf-8', body: quote }),
  );
  await trackNvda(extension, sandbox, { alsoMsft: true });

  const finance = await context.newPage();
  await finance.goto('https://www.investing.com/equities/nvidia-corp');
  await expect.poll(() => offerCount(finance)).toBe(1);
  const popup = await extension.open('popup.html');
  await loadBehind(popup, finance);
  const section = popup.getByRole('region', { name: 'On this page' });
  await expect(section.getByRole('button', { name: TRACKED })).toBeVisible();
  // The seed's playbooks may track the same tickers: only ours are asserted.
  expect(await matchedTitles(popup)).toContain(TRACKED);
  expect(await matchedTitles(popup)).not.toContain(CLOUD);

  // The app shows another quote without a page load: the section follows it.
  await finance.getByRole('button', { name: 'Next quote' }).click();
  await expect(finance).toHaveURL(/symbol=MSFT/);
  await loadBehind(popup, finance);
  await expect(section.getByRole('button', { name: CLOUD })).toBeVisible();
  await expect(section.getByRole('button', { name: TRACKED })).toHaveCount(0);
  expect(await matchedTitles(popup)).toContain(CLOUD);
  expect(await matchedTitles(popup)).not.toContain(TRACKED);

  // The same site, outside the content script's pages: no script answers, nothing is listed.
  await finance.goto('https://www.investing.com/about-us/');
  await loadBehind(popup, finance);
  expect(await matchedTitles(popup)).toEqual([]);
  await expect(popup.getByRole('button', { name: TRACKED }).first()).toBeVisible();
  await expect(popup.getByRole('region', { name: 'On this page' })).toHaveCount(0);
});

test('the side panel, left open, follows the page its window shows: a page loaded, another tab made active, a single-page navigation', async ({
  context,
  extension,
  pages,
  sandbox,
}) => {
  await trackNvda(extension, sandbox, { alsoMsft: true });
  const panel = await extension.open('sidepanel.html');
  const section = panel.getByRole('region', { name: 'On this page' });

  // Never reloaded from here on: the panel asks again by itself.
  const nvda = await context.newPage();
  await nvda.goto(pages.url('article-nvda.html'));
  await expect(section.getByRole('button', { name: TRACKED })).toBeVisible();
  await expect(section.getByRole('button', { name: CLOUD })).toHaveCount(0);

  const msft = await context.newPage();
  await msft.goto(pages.url('quote-msft.html'));
  await expect(section.getByRole('button', { name: CLOUD })).toBeVisible();
  await expect(section.getByRole('button', { name: TRACKED })).toHaveCount(0);

  await nvda.bringToFront();
  await expect(section.getByRole('button', { name: TRACKED })).toBeVisible();
  await expect(section.getByRole('button', { name: CLOUD })).toHaveCount(0);

  // A single-page app's own navigation (pushState) is followed too.
  const spa = await context.newPage();
  await spa.goto(pages.url('spa-quote.html'));
  await expect.poll(() => offerCount(spa)).toBe(1);
  await expect(section.getByRole('button', { name: TRACKED })).toBeVisible();
  await spa.getByRole('button', { name: 'Next quote' }).click();
  await expect(section.getByRole('button', { name: CLOUD })).toBeVisible();
  await expect(section.getByRole('button', { name: TRACKED })).toHaveCount(0);
});
