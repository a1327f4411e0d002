import type { Page } from '@playwright/test';
import type { Sandbox } from '../../sandbox/server';
import { DEMO_USER_ID } from '../../sandbox/store';
import { expect, test, type ExtensionHandle } from './fixtures';
import { offerCount } from './helpers/offer';

/**
 * Nothing a page can observe depends on the user's data or on the extension's identity.
 * The page below is the adversary: it writes candidate tickers into its DOM, calls pushState,
 * waits, and reads back everything it can (find-in-page, the host's box, its own hit test, the
 * messages posted to it, focus).
 */
const TRACKED_TITLE = 'Probe test: NVDA tracked';
const TRACKED = 'NVDA';
/** In no playbook of the seed's, nor of this test's. */
const UNTRACKED = 'KO';

async function trackNvda(extension: ExtensionHandle, sandbox: Sandbox) {
  await extension.configure();
  sandbox.db.createPlaybook(DEMO_USER_ID, {
    title: TRACKED_TITLE,
    thesis: 'Inference demand keeps margins high.',
    tickers: [TRACKED],
    visibility: 'private',
  });
  const popup = await extension.open('popup.html');
  await expect(popup.getByRole('button', { name: TRACKED_TITLE })).toBeVisible();
  await popup.close();
}

/** What an extension page is told about the tab: the titles "On this page" lists and the tab's badge. */
async function userView(surface: Page, finance: Page) {
  await finance.bringToFront();
  return surface.evaluate(async () => {
    const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
    const answer = await chrome.runtime.sendMessage({ type: 'getPageMatches', payload: { tabId: tab.id } });
    if (!answer.ok) throw new Error(answer.error.message);
    return {
      tickers: answer.value.tickers as string[],
      titles: (answer.value.matches as { title: string }[]).map((match) => match.title),
      badge: await chrome.action.getBadgeText({ tabId: tab.id }),
    };
  });
}

test('a probing page sees the same offer, text, geometry, messages and focus whether a ticker is tracked or not', async ({
  context,
  extension,
  pages,
  sandbox,
}) => {
  await trackNvda(extension, sandbox);
  const page = await context.newPage();
  await page.goto(pages.url('probe.html'));
  await expect.poll(() => offerCount(page)).toBe(1);

  const seen: Record<string, unknown[]> = { [TRACKED]: [], [UNTRACKED]: [] };
  for (let round = 0; round < 3; round++)
    for (const ticker of round % 2 ? [TRACKED, UNTRACKED] : [UNTRACKED, TRACKED])
      seen[ticker].push(await page.evaluate(([t, i]) => window.probe([t], i), [ticker, round] as const));

  // The page learned nothing: every probe, tracked or not, observed exactly the same.
  expect(seen[TRACKED]).toEqual(seen[UNTRACKED]);
  for (const observed of seen[TRACKED]) expect(observed).toEqual(seen[TRACKED][0]);
  const first = seen[TRACKED][0] as { messages: string[]; hits: number; focus: string[] };
  // The offer is there to be seen (the positive control), nothing was posted to the page, nothing took focus.
  expect(first.hits).toBeGreaterThan(0);
  expect(first.messages).toEqual([]);
  expect(first.focus).toEqual([]);

  // The user, and only the user, sees the match: in "On this page" and on the tab's badge.
  const surface = await extension.open('options.html');
  await page.evaluate(() => window.probe(['NVDA'], 99));
  await expect
    .poll(() => userView(surface, page))
    .toEqual({
      tickers: [TRACKED],
      titles: expect.arrayContaining([TRACKED_TITLE]),
      badge: expect.stringMatching(/^[1-9]\d*$/),
    });
  await page.evaluate(() => window.probe(['KO'], 100));
  await expect.poll(() => userView(surface, page)).toMatchObject({ tickers: [UNTRACKED], titles: [] });
  expect((await userView(surface, page)).badge).not.toMatch(/^[1-9]/);
});

test("a page that forges WXT's events and messages neither stops nor restarts the content script", async ({
  context,
  extension,
  pages,
  sandbox,
}) => {
  await trackNvda(extension, sandbox);
  const page = await context.newPage();
  await page.goto(pages.url('probe.html'));
  await expect.poll(() => offerCount(page)).toBe(1);
  await page.evaluate(() => window.probe(['NVDA'], 1));
  const forged = await page.evaluate(() => window.forge());
  expect(forged.length).toBeGreaterThan(0);
  await page.waitForTimeout(1_000);
  // Still drawn once, and still answering "On this page" for the page it runs on.
  expect(await offerCount(page)).toBe(1);
  const surface = await extension.open('options.html');
  expect(await userView(surface, page)).toMatchObject({
    tickers: [TRACKED],
    titles: expect.arrayContaining([TRACKED_TITLE]),
  });
  // No message of ours ever reached the page, so it never had the extension's id to forge with.
  const messages = await page.evaluate(() => window.__seen.filter((text) => !text.includes('forged')));
  expect(messages).toEqual([]);
  expect(messages.join('\n')).not.toContain(extension.id);
});

declare global {
  interface Window {
    probe: (tickers: readonly string[], index: number) => Promise<unknown>;
    forge: () => string[];
    __seen: string[];
  }
}
