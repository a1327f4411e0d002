/**
 * Chromium in German (LANGUAGE=de, Debian's chromium-l10n): the popup, the confirm window and the
 * side panel speak locales/de.yml, and numbers, percentages and dates are German. Every expected
 * string is read from locales/de.yml at test time (helpers/locales.ts), never written here.
 */
import type { Sandbox } from '../../sandbox/server';
import { expect, test } from './fixtures';
import { message } from './helpers/locales';

test.use({ uiLanguage: 'de' });

const de = (key: string, values?: Record<string, string>) => message('de', key, values);

function demoPlaybooks(sandbox: Sandbox) {
  const user = sandbox.db.userForKey(sandbox.demoKey);
  if (!user) throw new Error('no demo user');
  return { userId: user.id, playbooks: sandbox.db.listPlaybooks({ ownerId: user.id }, null, 20).rows };
}

test('the browser speaks German: chrome.i18n reports de', async ({ serviceWorker }) => {
  expect(await serviceWorker.evaluate(() => chrome.i18n.getUILanguage())).toBe('de');
});

test('the popup is in German', async ({ extension }) => {
  await extension.configure();
  const page = await extension.open('popup.html');
  await page.setViewportSize({ width: 380, height: 640 });
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(page.getByRole('heading', { level: 1, name: de('popup.title') })).toBeVisible();
  await expect(page.getByRole('navigation', { name: de('popup.links') })).toBeVisible();
  await expect(page.getByRole('link', { name: de('popup.openSidePanel') })).toBeVisible();
  await expect(page.getByText(de('common.disclaimerLine')).first()).toBeVisible();
});

test('the confirm window is in German', async ({ context, extension }) => {
  await extension.configure();
  const from = await extension.open('options.html');
  const opened = context.waitForEvent('page', { predicate: (p) => p.url().includes('/confirm.html') });
  const answer = await from.evaluate(
    (payload) => chrome.runtime.sendMessage<unknown, { ok: boolean }>({ type: 'requestWrite', payload }),
    {
      operationId: 'createPlaybook',
      body: { title: 'Ein Test', thesis: 'Steht so, wie gesendet.', tickers: ['SAP'], visibility: 'private' },
    },
  );
  expect(answer.ok).toBe(true);
  const page = await opened;
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  const dialog = page.getByRole('dialog', { name: de('confirm.dialog') });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: de('confirm.confirm') })).toBeVisible();
  await expect(dialog.getByRole('button', { name: de('confirm.cancel') })).toBeVisible();
  await expect(dialog).toContainText(de('common.disclaimerLine'));
  // The draft's own words stay as written; only the labels around them are German.
  await expect(dialog.getByLabel(de('confirm.thesis'), { exact: true })).toHaveValue(
    'Steht so, wie gesendet.',
  );
});

test('the side panel is in German, with German percentages and dates', async ({ extension, sandbox }) => {
  await extension.configure();
  const { userId, playbooks } = demoPlaybooks(sandbox);
  const [newest] = playbooks;
  const runs = sandbox.db.backtests.list(newest.id, userId, null, 20).rows;
  const latest = sandbox.db.backtests.get(runs.find((r) => r.status === 'completed')!.id, userId)!;
  const page = await extension.open(`sidepanel.html?playbook=${encodeURIComponent(newest.id)}`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('tab', { name: de('sidepanel.tabs.playbooks') })).toBeVisible();
  await expect(page.getByRole('tab', { name: de('sidepanel.tabs.discovery') })).toBeVisible();
  const region = page.getByRole('region', { name: de('backtests.region') });
  await expect(region).toBeVisible();
  await expect(region.getByText(de('backtests.totalReturn'), { exact: true })).toBeVisible();

  // German figures, computed here with Intl for 'de' (Node and Chromium share ICU's CLDR data).
  const total = new Intl.NumberFormat('de', {
    style: 'percent',
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
    signDisplay: 'exceptZero',
  })
    .format(latest.metrics!.total_return)
    // A loss is written with the real minus (U+2212), as lib/backtests/format.ts's formatReturn does.
    .replace(/-/g, '\u2212');
  expect(total).toMatch(/^[+\u2212]?\d+,\d\u00a0%$/);
  await expect(region).toContainText(total);
  const day = (date: string) =>
    new Intl.DateTimeFormat('de', { dateStyle: 'medium', timeZone: 'UTC' }).format(
      Date.parse(`${date}T00:00:00Z`),
    );
  expect(day(latest.start)).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
  await expect(region).toContainText(day(latest.start));
});
