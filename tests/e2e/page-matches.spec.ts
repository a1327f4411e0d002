import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import type { Sandbox } from '../../sandbox/server';
import { DEMO_USER_ID } from '../../sandbox/store';
import { expect, test, type ExtensionHandle } from './fixtures';
import { COUNT_LAYOUT_SHIFT, layoutShift } from './helpers/layoutShift';
import { offerCount } from './helpers/offer';
import { FIXTURE_PAGES } from './paths';

const TRACKED = 'Zeta test: NVDA inference margins';

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
 * A playbook that tracks NVDA, in the worker's read cache (which matching reads) as after the
 * popup's first list page.
 */
async function trackNvda(extension: ExtensionHandle, sandbox: Sandbox): Promise<void> {
  await extension.configure();
  sandbox.db.createPlaybook(DEMO_USER_ID, {
    title: TRACKED,
    thesis: 'Inference demand keeps margins high.',
    tickers: ['NVDA'],
    visibility: 'private',
  });
  const first = await extension.open('popup.html');
  await expect(first.getByRole('button', { name: TRACKED })).toBeVisible();
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

test('"On this page" lists the playbooks that track the page in the popup and the side panel; the page learns a count only', async ({
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
  // The offer says that matches exist, never which.
  await expect
    .poll(() => visibleTexts(finance))
    .toContainEqual(expect.stringMatching(/^\d+ of your playbooks tracks? this page$/));
  expect((await visibleTexts(finance)).join('\n')).not.toContain(TRACKED);
  expect(await finance.content()).not.toContain(TRACKED);

  const popup = await extension.open('popup.html');
  await loadBehind(popup, finance);
  const popupSection = popup.getByRole('region', { name: 'On this page' });
  await expect(popupSection.getByRole('button', { name: TRACKED })).toBeVisible();
  // It came after the rows were painted, pinned at the bottom: not one row moved for it.
  expect(await layoutShift(popup)).toBe(0);

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

test('"On this page" works on a finance site the extension has no host access to, and forgets it when the tab leaves', async ({
  context,
  extension,
  sandbox,
}) => {
  // A real finance address, answered by the test (no network): the build's only host access is
  // loopback, so the worker cannot read this tab's URL; only its content script knows the page.
  const article = await readFile(`${FIXTURE_PAGES}/article-nvda.html`, 'utf8');
  await context.route('https://www.cnbc.com/**', (route) =>
    route.fulfill({ contentType: 'text/html; charset=utf-8', body: article }),
  );
  await trackNvda(extension, sandbox);

  const finance = await context.newPage();
  await finance.goto('https://www.cnbc.com/quotes/NVDA');
  await expect.poll(() => offerCount(finance)).toBe(1);
  const popup = await extension.open('popup.html');
  await loadBehind(popup, finance);
  await expect(
    popup.getByRole('region', { name: 'On this page' }).getByRole('button', { name: TRACKED }),
  ).toBeVisible();

  // The same site, outside the content script's pages: what the quote page reported is forgotten.
  await finance.goto('https://www.cnbc.com/about');
  await loadBehind(popup, finance);
  expect(await matchedTitles(popup)).toEqual([]);
  await expect(popup.getByRole('button', { name: TRACKED }).first()).toBeVisible();
  await expect(popup.getByRole('region', { name: 'On this page' })).toHaveCount(0);
});
