import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import type { Sandbox } from '../../sandbox/server';
import { playbookPerformance, utcDate } from '../../sandbox/catalystModel';
import { parseCalendar, prop, text } from '../fixtures/icsReader';
import { expect, test } from './fixtures';
import { offerCount } from './helpers/offer';

/** The demo user's playbook that tracks NVDA (and AMD): the seed's catalysts fall on its tickers. */
function siliconPlaybook(sandbox: Sandbox) {
  const user = sandbox.db.userForKey(sandbox.demoKey);
  if (!user) throw new Error('no demo user');
  const playbooks = sandbox.db.listPlaybooks({ ownerId: user.id }, null, 100).rows;
  const playbook = playbooks.find((p) => p.tickers.includes('NVDA') && p.tickers.includes('AMD'));
  if (!playbook) throw new Error('no seeded playbook tracks NVDA');
  const catalysts = sandbox.db.catalysts.list(user.id, {
    tickers: playbook.tickers,
    from: utcDate(Date.now()),
    to: null,
    after: null,
    limit: 100,
  }).rows;
  return { playbook, catalysts };
}

/** A fraction as the page shows it: the browser's locale, one decimal, signed, a loss with the real minus. */
async function percent(page: Page, raw: number): Promise<string> {
  // Settled to 12 decimals first, as lib/i18n/format.ts does (1.1945 − 1 is 0.19449999…).
  const fraction = Math.round(raw * 1e12) / 1e12;
  const text = await page.evaluate(
    (fraction) =>
      new Intl.NumberFormat(undefined, {
        style: 'percent',
        minimumFractionDigits: 1,
        maximumFractionDigits: 1,
        signDisplay: 'exceptZero',
      }).format(fraction),
    fraction,
  );
  return text.replace(/-/g, '\u2212');
}

function day(page: Page, date: string): Promise<string> {
  return page.evaluate((date) => {
    const [y, m, d] = date.split('-').map(Number);
    return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(y, m - 1, d));
  }, date);
}

function money(page: Page, value: number, currency: string): Promise<string> {
  return page.evaluate(
    ({ value, currency }) => new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(value),
    { value, currency },
  );
}

test('playbook detail: its catalysts soonest first, saved as a calendar file read back field by field', async ({
  extension,
  sandbox,
}) => {
  const { playbook, catalysts } = siliconPlaybook(sandbox);
  expect(catalysts.map((c) => c.ticker)).toEqual(['NVDA', 'AMD', 'AMD']);
  await extension.configure();
  const page = await extension.open(`sidepanel.html?playbook=${encodeURIComponent(playbook.id)}`);

  const region = page.getByRole('region', { name: 'Catalysts' });
  const items = region.getByRole('listitem');
  await expect(items).toHaveCount(3);
  await expect(items.nth(0)).toContainText('NVDA');
  await expect(items.nth(0)).toContainText('Confirmed');
  await expect(items.nth(0)).toContainText('After the close');
  await expect(items.nth(1)).toContainText('AMD');
  await expect(items.nth(1)).toContainText('Estimated date');
  await expect(items.nth(1)).toContainText(await day(page, catalysts[1].at));
  for (const [i, catalyst] of catalysts.entries()) await expect(items.nth(i)).toContainText(catalyst.title);

  const saving = page.waitForEvent('download');
  await region.getByRole('button', { name: 'Add to calendar' }).click();
  const download = await saving;
  expect(download.suggestedFilename()).toMatch(/\.ics$/);
  await expect(region.getByRole('status')).toContainText(download.suggestedFilename());
  const file = await readFile(await download.path(), 'utf8');
  expect(file).not.toContain(sandbox.demoKey);
  const calendar = parseCalendar(file);
  expect(calendar.name).toBe('VCALENDAR');
  const events = calendar.components;
  const host = new URL(sandbox.apiUrl).host;
  expect(events.map((e) => prop(e, 'UID')?.value)).toEqual(catalysts.map((c) => `${c.id}@${host}`));
  expect(events.map((e) => prop(e, 'SEQUENCE')?.value)).toEqual(catalysts.map((c) => String(c.sequence)));
  expect(events.map((e) => prop(e, 'STATUS')?.value)).toEqual(['CONFIRMED', 'TENTATIVE', 'TENTATIVE']);
  expect(events.map((e) => text(prop(e, 'SUMMARY')!.value))).toEqual(
    catalysts.map((c) => `${c.ticker}: ${c.title}`),
  );
  const nvdaStart = new Date(catalysts[0].at).toISOString().replace(/[-:]|\.\d+/g, '');
  expect(prop(events[0], 'DTSTART')).toEqual({ name: 'DTSTART', params: {}, value: nvdaStart });
  expect(prop(events[1], 'DTSTART')).toEqual({
    name: 'DTSTART',
    params: { VALUE: 'DATE' },
    value: catalysts[1].at.replaceAll('-', ''),
  });
  for (const event of events)
    expect(text(prop(event, 'DESCRIPTION')!.value).split('\n')[0]).toBe(playbook.title);
  expect(text(prop(events[0], 'DESCRIPTION')!.value)).toBe(`${playbook.title}\nConfirmed\nAfter the close`);
});

test('playbook detail: its return since capture against SPY and each ticker, with the seed exact figures', async ({
  extension,
  sandbox,
}) => {
  const { playbook } = siliconPlaybook(sandbox);
  const expected = playbookPerformance(playbook, Date.now());
  // The seed's playbook has moved: a figure of zero would prove less.
  expect(expected.return).not.toBe(0);
  await extension.configure();
  const page = await extension.open(`sidepanel.html?playbook=${encodeURIComponent(playbook.id)}`);

  const region = page.getByRole('region', { name: 'Since captured' });
  await expect(region).toContainText(
    `${await percent(page, expected.return!)} since ${await day(page, expected.since)} · SPY ${await percent(page, expected.benchmark.return)}`,
  );
  const rows = region.getByRole('table', { name: 'Tickers since capture' }).getByRole('row');
  await expect(rows).toHaveCount(expected.tickers.length + 1);
  for (const [i, ticker] of expected.tickers.entries()) {
    const start = await money(page, ticker.start_price, ticker.currency);
    const last = await money(page, ticker.last_price, ticker.currency);
    await expect(rows.nth(i + 1)).toHaveText(
      `${ticker.symbol}${start} → ${last}${await percent(page, ticker.return)}`,
    );
  }
  await expect(region).toContainText(`As of the close of ${await day(page, expected.as_of)}`);
  await expect(region).toContainText(
    'Past moves do not predict future ones. Decision support, not financial advice.',
  );
});

test('popup: each row shows its return since capture, painted from the read model before the service answers', async ({
  extension,
  sandbox,
}) => {
  const { playbook } = siliconPlaybook(sandbox);
  const expected = playbookPerformance(playbook, Date.now());
  await extension.configure();
  const row = (page: Page) =>
    page.getByRole('list', { name: 'Playbooks' }).getByRole('listitem').filter({ hasText: playbook.title });
  const short = async (page: Page) =>
    page.evaluate(
      (fraction) =>
        new Intl.NumberFormat(undefined, {
          style: 'percent',
          maximumFractionDigits: 0,
          signDisplay: 'exceptZero',
        }).format(fraction),
      Math.round(expected.return! * 1e12) / 1e12,
    );
  // The worker reads the figures in the background after the first page; a popup opened after
  // that paints them.
  await expect
    .poll(async () => {
      const popup = await extension.open('popup.html');
      const text = (await row(popup).first().textContent({ timeout: 5_000 })) ?? '';
      const figure = await short(popup);
      await popup.close();
      return text.includes(`Since captured ${figure}`) || text.includes(`Since captured${figure}`);
    })
    .toBe(true);

  // The service now answers only after 20 s: the figure comes from the read model, not the network.
  sandbox.setFaults({ latencyMs: 20_000 });
  try {
    const popup = await extension.open('popup.html');
    await expect(row(popup).locator('.pb-return')).toHaveText(`Since captured ${await short(popup)}`, {
      timeout: 5_000,
    });
    await popup.close();
  } finally {
    sandbox.resetFaults();
  }
});

test('playbook detail: a catalyst list longer than a page is read by following its cursor', async ({
  extension,
  sandbox,
}) => {
  const { playbook } = siliconPlaybook(sandbox);
  const EXTRA = 60;
  for (let i = 0; i < EXTRA; i++)
    sandbox.db.catalysts.insert({
      id: `cat_extra_${i}`,
      ticker: 'NVDA',
      kind: 'product',
      title: `NVIDIA event ${i}`,
      at: utcDate(Date.now(), 10 + i),
      all_day: true,
      status: 'estimated',
      sequence: 1,
      updated_at: new Date().toISOString(),
    });
  const { catalysts } = siliconPlaybook(sandbox);
  expect(catalysts).toHaveLength(EXTRA + 3);
  await extension.configure();
  sandbox.clearRequests();
  const page = await extension.open(`sidepanel.html?playbook=${encodeURIComponent(playbook.id)}`);

  const items = page.getByRole('region', { name: 'Catalysts' }).getByRole('listitem');
  await expect(items).toHaveCount(EXTRA + 3);
  // Soonest first across pages: the AMD event 120 days out is last.
  await expect(items.last()).toContainText(catalysts.at(-1)!.title);
  await expect(items.nth(2)).toContainText('NVIDIA event 0');
  // Every item in the service's ascending order (the sandbox's own list of them).
  const texts = await items.allTextContents();
  expect(texts.map((text, i) => text.includes(catalysts[i].title))).toEqual(catalysts.map(() => true));
  const reads = sandbox.requests().filter((r) => r.method === 'GET' && r.path.endsWith('/catalysts'));
  expect(reads.length).toBeGreaterThanOrEqual(2);
  expect(reads.some((r) => new URLSearchParams(r.query).has('cursor'))).toBe(true);
});

test('"On this page" in the side panel names a tracked ticker\'s catalyst within a week; the page and the popup do not', async ({
  context,
  extension,
  pages,
  sandbox,
}) => {
  const { catalysts } = siliconPlaybook(sandbox);
  const nvda = catalysts[0];
  await extension.configure();
  const finance = await context.newPage();
  await finance.goto(pages.url('article-nvda.html'));
  await expect.poll(() => offerCount(finance)).toBe(1);

  const panel = await extension.open('sidepanel.html');
  await finance.bringToFront();
  await panel.reload();
  const week = panel.getByRole('list', { name: 'Catalysts within a week' });
  await expect(week.getByRole('listitem').first()).toContainText(`NVDA: ${nvda.title}`);
  await expect(week.getByRole('listitem').first()).toContainText('(Confirmed)');

  const popup = await extension.open('popup.html');
  await finance.bringToFront();
  await popup.reload();
  await expect(popup.getByRole('region', { name: 'On this page' })).toBeVisible();
  await expect(popup.getByRole('list', { name: 'Catalysts within a week' })).toHaveCount(0);
  expect(await finance.content()).not.toContain(nvda.title);
});
