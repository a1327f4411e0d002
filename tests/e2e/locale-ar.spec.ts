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
