/**
 * Chromium in Arabic (LANGUAGE=ar): the pages are right to left. Proof by geometry, not only by
 * attribute: in the popup's header the title (first in the DOM) sits at the right edge and the
 * links to its left; the side panel's first tab is the rightmost. Screenshots are kept as artifacts.
 */
import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from './fixtures';
import { message } from './helpers/locales';

test.use({ uiLanguage: 'ar' });

async function snap(page: Page, name: string, testInfo: TestInfo): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

async function box(page: Page, selector: string) {
  const found = await page.locator(selector).first().boundingBox();
  if (!found) throw new Error(`${selector} is not drawn`);
  return found;
}

test('the popup is right to left: its header starts at the right edge', async ({ extension }, testInfo) => {
  await extension.configure();
  const page = await extension.open('popup.html');
  await page.setViewportSize({ width: 380, height: 640 });
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  await expect(page.getByRole('heading', { level: 1, name: message('ar', 'popup.title') })).toBeVisible();

  const width = page.viewportSize()!.width;
  const title = await box(page, '.popup-head > h1');
  const links = await box(page, '.popup-head > nav');
  // The first item of the row is on the right, its start edge (the right one) near the page's.
  expect(title.x).toBeGreaterThan(links.x);
  expect(width - (title.x + title.width)).toBeLessThan(32);
  expect(links.x).toBeLessThan(32);
  await snap(page, 'popup-ar', testInfo);
});

test('the side panel is right to left: the first tab is the rightmost', async ({ extension }, testInfo) => {
  await extension.configure();
  const page = await extension.open('sidepanel.html');
  await page.setViewportSize({ width: 420, height: 800 });
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  const tabs = page.getByRole('tab');
  await expect(tabs.first()).toHaveAccessibleName(message('ar', 'sidepanel.tabs.playbooks'));
  const first = (await tabs.nth(0).boundingBox())!;
  const second = (await tabs.nth(1).boundingBox())!;
  expect(first.x).toBeGreaterThan(second.x);
  await snap(page, 'sidepanel-ar', testInfo);
});

/** Left edges of the first and last characters of `text` where the page shows it: LTR when first < last. */
async function ends(page: Page, text: string): Promise<{ first: number; last: number }> {
  return page.evaluate((wanted) => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.textContent?.indexOf(wanted) ?? -1;
      if (at < 0) continue;
      const edge = (index: number) => {
        const range = document.createRange();
        range.setStart(node, index);
        range.setEnd(node, index + 1);
        return range.getBoundingClientRect().x;
      };
      return { first: edge(at), last: edge(at + wanted.length - 1) };
    }
    throw new Error(`${wanted} is not on the page`);
  }, text);
}

test('the options page keeps paths, addresses and keys left to right', async ({
  extension,
  sandbox,
}, testInfo) => {
  await extension.configure({ key: null });
  const page = await extension.open('options.html?welcome');
  await page.setViewportSize({ width: 800, height: 1200 });
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('heading', { name: message('ar', 'options.welcome.heading') })).toBeVisible();
  for (const text of ['/api/v1', '.sandbox/demo-key', `${sandbox.baseUrl}/apikey`]) {
    const { first, last } = await ends(page, text);
    expect(first, text).toBeLessThan(last);
  }
  await snap(page, 'options-ar', testInfo);
});
