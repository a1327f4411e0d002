import type { Locator, Page } from '@playwright/test';
import type { Sandbox } from '../../sandbox/server';
import type { EquityPoint } from '../../sandbox/backtestModel';
import { expect, test } from './fixtures';
import { confirmNextWrite } from './helpers/flows';

/** The demo user's playbooks, newest first: the seed gives the newest four a backtest history. */
function demoPlaybooks(sandbox: Sandbox) {
  const user = sandbox.db.userForKey(sandbox.demoKey);
  if (!user) throw new Error('no demo user');
  return { userId: user.id, playbooks: sandbox.db.listPlaybooks({ ownerId: user.id }, null, 20).rows };
}

/**
 * Figures as the page formats them: the browser's locale, percentages to one decimal, the ratio
 * settled to 12 decimals first as lib/i18n/format.ts does (1.1945 − 1 reads +19.5%, not +19.4%).
 */
async function percent(page: Page, raw: number, signed: boolean): Promise<string> {
  const fraction = Math.round(raw * 1e12) / 1e12;
  return page.evaluate(
    ({ fraction, signed }) =>
      new Intl.NumberFormat(undefined, {
        style: 'percent',
        minimumFractionDigits: 1,
        maximumFractionDigits: 1,
        signDisplay: signed ? 'exceptZero' : 'auto',
      }).format(fraction),
    { fraction, signed },
  );
}

/** A return as the charts, their readouts and the figures say it: the real minus (U+2212) for a loss. */
async function returnText(page: Page, fraction: number, signed = true): Promise<string> {
  return (await percent(page, fraction, signed)).replace(/-/g, '\u2212');
}

/**
 * A backtest's figures over `start`…`end` worked out here from its seeded equity, by definition:
 * each value over its value on the last day on or before `start`, cut after `end`.
 */
function figuresOver(equity: readonly EquityPoint[], start: string, end: string) {
  const at = (date: string) => equity.filter((p) => p.date <= date).at(-1)!;
  const base = at(start);
  const inside = [base, ...equity.filter((p) => p.date > start && p.date <= end)];
  let peak = 1;
  let worst = 0;
  for (const p of inside) {
    peak = Math.max(peak, p.value / base.value);
    worst = Math.min(worst, p.value / base.value / peak - 1);
  }
  return {
    total: at(end).value / base.value - 1,
    benchmark: at(end).benchmark / base.benchmark - 1,
    drawdown: worst,
  };
}

/** "Jan 3, 2022" as the page formats a YYYY-MM-DD day (the browser's locale, dateStyle medium). */
async function dayText(page: Page, date: string): Promise<string> {
  return page.evaluate((date) => {
    const [y, m, d] = date.split('-').map(Number);
    return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(y, m - 1, d));
  }, date);
}

async function expectSeededDetail(page: Page, sandbox: Sandbox, apiPaths: { list: string; get: string }) {
  const { userId, playbooks } = demoPlaybooks(sandbox);
  const [newest] = playbooks;
  const runs = sandbox.db.backtests.list(newest.id, userId, null, 20).rows;
  const latest = sandbox.db.backtests.get(runs.find((r) => r.status === 'completed')!.id, userId)!;
  sandbox.clearRequests();
  await page.goto(
    page.url().replace(/sidepanel\.html.*$/, `sidepanel.html?playbook=${encodeURIComponent(newest.id)}`),
  );

  const region = page.getByRole('region', { name: 'Backtests' });
  const items = region.getByRole('list', { name: 'Backtest runs' }).getByRole('listitem');
  await expect(items).toHaveCount(3);
  await expect(items.nth(0)).toContainText('Completed');
  await expect(items.nth(0)).toContainText(`vs ${latest.benchmark}`);
  await expect(items.nth(1)).toContainText('Failed');
  await expect(items.nth(2)).toContainText('Completed');

  const figure = region.getByRole('img', { name: 'Equity curve' });
  await expect(figure).toBeVisible();
  await expect(figure.locator('path')).toHaveCount(2);
  const metrics = latest.metrics!;
  for (const [term, value] of [
    ['Total return', await returnText(page, metrics.total_return)],
    ['Benchmark return', await returnText(page, metrics.benchmark_return)],
    ['Max drawdown', await returnText(page, metrics.max_drawdown, false)],
  ] as const)
    await expect(region.locator('dt', { hasText: term }).locator('+ dd')).toHaveText(value);
  await expect(region.locator('dt', { hasText: 'Sharpe ratio' })).toBeVisible();
  await expect(region).toContainText('do not predict future results');

  // Keyboard: the figure takes focus and reads out the last day's return, then the one before.
  await figure.focus();
  const readout = region.locator('.chart-readout');
  const [before, last] = latest.equity!.slice(-2);
  await expect(readout).toContainText(`Playbook ${await returnText(page, last.value - 1)}, Benchmark (`);
  await page.keyboard.press('ArrowLeft');
  await expect(readout).toContainText(`Playbook ${await returnText(page, before.value - 1)}`);

  await region.getByRole('button', { name: 'Show data' }).click();
  const table = region.getByRole('table', { name: 'Equity curve data' });
  await expect(table.getByRole('columnheader')).toHaveText(['Date', 'Playbook', 'Benchmark']);
  await expect(table.getByRole('row')).toHaveCount(latest.equity!.length + 1);
  await expect(table.getByRole('row').last().getByRole('cell').nth(1)).toHaveText(
    await returnText(page, last.value - 1),
  );

  const reads = sandbox.requests().filter((r) => r.method === 'GET');
  expect(reads.some((r) => r.path === apiPaths.list.replace('{playbook}', newest.id))).toBe(true);
  expect(reads.some((r) => r.path === apiPaths.get.replace('{backtest}', latest.id))).toBe(true);
}

test('playbook detail: a seeded backtest as list, equity curve, figures and data table', async ({
  extension,
  sandbox,
}) => {
  await extension.configure();
  const page = await extension.open('sidepanel.html');
  await expectSeededDetail(page, sandbox, {
    list: '/api/v1/playbooks/{playbook}/backtests',
    get: '/api/v1/backtests/{backtest}',
  });
});

test.describe('in dialect b (other paths, found by operationId)', () => {
  test.use({ dialect: 'b' });
  test('the same detail reads the backtests where the document says', async ({ extension, sandbox }) => {
    await extension.configure();
    const page = await extension.open('sidepanel.html');
    await expectSeededDetail(page, sandbox, {
      list: '/api/v2/books/{playbook}/backtests',
      get: '/api/v2/backtest-runs/{backtest}',
    });
  });
});

test('a new backtest, confirmed in the confirm window, appears and completes when its event arrives', async ({
  context,
  extension,
  sandbox,
  serviceWorker,
}) => {
  await extension.configure();
  // Record what the worker asks Chrome to show (the polyfill calls chrome.notifications at call time).
  await serviceWorker.evaluate(() => {
    const shown: unknown[] = [];
    (globalThis as { __notifications?: unknown[] }).__notifications = shown;
    const create = chrome.notifications.create.bind(chrome.notifications);
    chrome.notifications.create = ((...args: unknown[]) => {
      shown.push({ id: args.find((a) => typeof a === 'string'), ...args.find((a) => typeof a === 'object') });
      return (create as (...a: unknown[]) => unknown)(...args);
    }) as typeof chrome.notifications.create;
  });
  const { userId, playbooks } = demoPlaybooks(sandbox);
  const target = playbooks[6];
  expect(sandbox.db.backtests.list(target.id, userId, null, 5).rows).toHaveLength(0);
  const page = await extension.open(`sidepanel.html?playbook=${encodeURIComponent(target.id)}`);
  const region = page.getByRole('region', { name: 'Backtests' });
  await expect(region).toContainText('No backtests yet.');

  const form = page.getByRole('form', { name: 'Backtest' });
  await form.getByLabel('Start').fill('2021-01-04');
  await form.getByLabel('End').fill('2023-12-29');
  await form.getByLabel('Benchmark').fill('QQQ');
  const confirm = await confirmNextWrite(context, () =>
    form.getByRole('button', { name: 'Run backtest' }).click(),
  );
  await expect(confirm.page.getByRole('status')).toContainText('Sent');

  const items = region.getByRole('list', { name: 'Backtest runs' }).getByRole('listitem');
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText('vs QQQ');
  // Completed through the event: the list, the curve and the figures of this run.
  await expect(items.first()).toContainText('Completed', { timeout: 15_000 });
  const [run] = sandbox.db.backtests.list(target.id, userId, null, 5).rows;
  expect(run).toMatchObject({
    status: 'completed',
    start: '2021-01-04',
    end: '2023-12-29',
    benchmark: 'QQQ',
  });
  await expect(region.getByRole('img', { name: 'Equity curve' })).toBeVisible();
  await expect(region.locator('dt', { hasText: 'Total return' }).locator('+ dd')).toHaveText(
    await returnText(page, run.metrics!.total_return),
  );
  // The notification says the result in one line.
  const m = run.metrics!;
  const line = `${await returnText(page, m.total_return)} vs QQQ ${await returnText(page, m.benchmark_return)}, max drawdown ${await returnText(page, m.max_drawdown, false)}`;
  await expect
    .poll(() =>
      serviceWorker.evaluate(() =>
        JSON.stringify((globalThis as { __notifications?: unknown[] }).__notifications ?? []),
      ),
    )
    .toContain(line);

  // Its id carries this run, so a click opens the side panel at this backtest (the click itself
  // cannot be dispatched to the worker here; tests/unit/background/switchboard.test.ts clicks).
  const notified = (await serviceWorker.evaluate(
    () => (globalThis as { __notifications?: unknown[] }).__notifications ?? [],
  )) as { id?: string; message?: string }[];
  const own = notified.find((n) => n.message?.includes(line));
  expect(own?.id).toContain(`${encodeURIComponent(target.id)},${encodeURIComponent(run.id)}|`);
  await page.goto(
    page
      .url()
      .replace(
        /sidepanel\.html.*$/,
        `sidepanel.html?playbook=${encodeURIComponent(target.id)}&backtest=${encodeURIComponent(run.id)}`,
      ),
  );
  await expect(region.getByRole('heading', { level: 4 })).toHaveText(/^Result: .* vs QQQ$/);
  await expect(region.getByRole('img', { name: 'Equity curve' })).toBeVisible();
});

test('opened at an older backtest (as a notification opens it), the panel shows that one; the list picks another', async ({
  extension,
  sandbox,
}) => {
  await extension.configure();
  const { userId, playbooks } = demoPlaybooks(sandbox);
  const [newest] = playbooks;
  const completed = sandbox.db.backtests
    .list(newest.id, userId, null, 20)
    .rows.filter((r) => r.status === 'completed');
  expect(completed.length).toBeGreaterThanOrEqual(2);
  const [latest, older] = [completed[0], sandbox.db.backtests.get(completed[1].id, userId)!];
  const page = await extension.open(
    `sidepanel.html?playbook=${encodeURIComponent(newest.id)}&backtest=${encodeURIComponent(older.id)}`,
  );
  const region = page.getByRole('region', { name: 'Backtests' });
  const total = region.locator('dt', { hasText: 'Total return' }).locator('+ dd');
  await expect(region.getByRole('heading', { level: 4 })).toHaveText(
    new RegExp(`^Result: .* vs ${older.benchmark}$`),
  );
  await expect(total).toHaveText(await returnText(page, older.metrics!.total_return));
  await expect(region.getByRole('img', { name: 'Equity curve' }).locator('path')).toHaveCount(2);

  const shows = region.getByRole('button', { name: /^Show the result of/ });
  await expect(shows).toHaveCount(completed.length);
  await expect(shows.nth(1)).toHaveAttribute('aria-pressed', 'true');
  await shows.nth(0).click();
  await expect(shows.nth(0)).toHaveAttribute('aria-pressed', 'true');
  await expect(total).toHaveText(await returnText(page, latest.metrics!.total_return));
});

/** The playbook's completed backtests with their equity, newest first, as the sandbox holds them. */
function completedRuns(sandbox: Sandbox, userId: string, playbookId: string) {
  return sandbox.db.backtests
    .list(playbookId, userId, null, 20)
    .rows.filter((r) => r.status === 'completed')
    .map((r) => sandbox.db.backtests.get(r.id, userId)!);
}

/** The metrics rows say, for each playbook, the figures worked out here over `start`…`end`. */
async function expectFiguresOver(
  page: Page,
  region: Locator,
  compared: { title: string; equity: readonly EquityPoint[] }[],
  start: string,
  end: string,
) {
  await expect(region).toContainText(
    `Shared period: ${await dayText(page, start)} – ${await dayText(page, end)}.`,
  );
  const rows = region.getByRole('table', { name: 'Comparison metrics' }).getByRole('row');
  await expect(rows).toHaveCount(compared.length + 1);
  for (const [i, { title, equity }] of compared.entries()) {
    const want = figuresOver(equity, start, end);
    await expect(rows.nth(i + 1).getByRole('rowheader')).toContainText(title);
    await expect(rows.nth(i + 1).getByRole('cell')).toHaveText([
      await returnText(page, want.total),
      await returnText(page, want.benchmark),
      await returnText(page, want.drawdown, false),
    ]);
  }
}

test('comparing playbooks over the period every chosen backtest covers, with a backtest picked per playbook', async ({
  extension,
  sandbox,
}) => {
  await extension.configure();
  const { userId, playbooks } = demoPlaybooks(sandbox);
  const [first, second, third] = playbooks;
  // The seed: first ran 2022–2024 (newest) and 2019–2021; second 2021–2024; third 2022–2024.
  const [firstNewest, firstOlder] = completedRuns(sandbox, userId, first.id);
  const [secondRun] = completedRuns(sandbox, userId, second.id);
  const [thirdRun] = completedRuns(sandbox, userId, third.id);
  expect([firstNewest.start, firstOlder.end, secondRun.start, thirdRun.start]).toEqual([
    '2022-01-03',
    '2021-12-31',
    '2021-01-04',
    '2022-01-03',
  ]);
  const page = await extension.open('sidepanel.html');
  const list = page.getByRole('list', { name: 'Playbooks' });
  await expect(list.getByRole('button', { name: first.title })).toBeVisible();
  // One Tab stop per row until the user chooses: then each row is a checkbox named by its title.
  await expect(page.getByRole('checkbox')).toHaveCount(0);
  await page.getByRole('button', { name: 'Choose playbooks…', pressed: false }).click();
  await expect(page.getByRole('button', { name: 'Choose playbooks…', pressed: true })).toBeVisible();
  const compare = page.getByRole('button', { name: /^Compare \(\d\)$/ });
  await expect(compare).toBeDisabled();
  await page.getByRole('checkbox', { name: first.title, exact: true }).check();
  await expect(compare).toBeDisabled();
  await page.getByRole('checkbox', { name: second.title, exact: true }).check();
  await page.getByRole('checkbox', { name: third.title, exact: true }).check();
  await compare.click();

  // The newest completed backtest of each by default: the shared period starts when the later ones do.
  const region = page.getByRole('region', { name: 'Comparison' });
  const chart = region.getByRole('img', { name: 'Comparison chart' });
  await expect(chart.locator('path')).toHaveCount(3);
  const period = { start: '2022-01-03', end: '2024-12-31' };
  await expectFiguresOver(
    page,
    region,
    [
      { title: first.title, equity: firstNewest.equity! },
      { title: second.title, equity: secondRun.equity! },
      { title: third.title, equity: thirdRun.equity! },
    ],
    period.start,
    period.end,
  );
  // Every curve starts at 0% on the first shared date.
  await chart.focus();
  await page.keyboard.press('Home');
  const readout = region.locator('.chart-readout');
  await expect(readout).toHaveText(
    `${await dayText(page, period.start)}: ${[first, second, third].map((p) => `${p.title} 0.0%`).join(', ')}`,
  );
  await expect(region).toContainText('do not predict future results');

  // Picking the first playbook's older backtest (2019–2021): no date is shared with the third's 2022–2024.
  const pick = region.getByRole('combobox', { name: `Backtest of ${first.title}` });
  await expect(pick).toHaveValue(firstNewest.id);
  await pick.selectOption(firstOlder.id);
  await expect(region.getByRole('note')).toContainText('These backtests share no dates');
  await expect(chart).toHaveCount(0);

  // Compared with the second alone, the period is 2021, when both ran: its start is the second's, its end the first's.
  await region.getByRole('button', { name: 'Close comparison' }).click();
  await page.getByRole('checkbox', { name: third.title, exact: true }).uncheck();
  await compare.click();
  await expect(region.getByRole('combobox', { name: `Backtest of ${first.title}` })).toHaveValue(
    firstNewest.id,
  );
  await region.getByRole('combobox', { name: `Backtest of ${first.title}` }).selectOption(firstOlder.id);
  await expectFiguresOver(
    page,
    region,
    [
      { title: first.title, equity: firstOlder.equity! },
      { title: second.title, equity: secondRun.equity! },
    ],
    '2021-01-04',
    '2021-12-31',
  );
  await expect(chart.locator('path')).toHaveCount(2);

  // A 400 px side panel: the metrics table fits without sideways scrolling, its headers keeping their names.
  await page.setViewportSize({ width: 400, height: 800 });
  const table = region.getByRole('table', { name: 'Comparison metrics' });
  await expect(table.getByRole('columnheader')).toHaveCount(4);
  for (const name of ['Playbook', 'Total return', 'Benchmark return', 'Max drawdown'])
    await expect(table.getByRole('columnheader', { name, exact: true })).toBeVisible();
  const overflow = await table.evaluate((element) => {
    const widths = [element, ...ancestors(element)].map((e) => e.scrollWidth - e.clientWidth);
    function ancestors(e: Element): Element[] {
      return e.parentElement ? [e.parentElement, ...ancestors(e.parentElement)] : [];
    }
    return {
      scrolls: Math.max(...widths.slice(1)),
      right: element.getBoundingClientRect().right,
      viewport: document.documentElement.clientWidth,
    };
  });
  expect(overflow.scrolls).toBeLessThanOrEqual(0);
  expect(overflow.right).toBeLessThanOrEqual(overflow.viewport);
});

test('a backtest older than the first list page can be picked: "Show older backtests" reads the next page', async ({
  extension,
  sandbox,
}) => {
  await extension.configure();
  const { userId, playbooks } = demoPlaybooks(sandbox);
  const [first, second] = playbooks;
  const [, firstOlder] = completedRuns(sandbox, userId, first.id);
  const [secondRun] = completedRuns(sandbox, userId, second.id);
  // A full list page (20) of newer runs: the seeded 2019–2021 one is on the second page.
  const newer = Array.from({ length: 20 }, (_, i) => {
    const id = sandbox.db.backtests.create(
      userId,
      first.id,
      { start: '2023-01-03', end: '2024-12-31', benchmark: 'SPY' },
      new Date(Date.now() + i).toISOString(),
    );
    sandbox.db.backtests.complete(id);
    return id;
  });
  const page = await extension.open('sidepanel.html');
  await page.getByRole('button', { name: 'Choose playbooks…' }).click();
  await page.getByRole('checkbox', { name: first.title, exact: true }).check();
  await page.getByRole('checkbox', { name: second.title, exact: true }).check();
  await page.getByRole('button', { name: /^Compare \(\d\)$/ }).click();

  const region = page.getByRole('region', { name: 'Comparison' });
  const pick = region.getByRole('combobox', { name: `Backtest of ${first.title}` });
  // The newest completed by default; the first page's twenty to pick from, the older one not yet.
  await expect(pick).toHaveValue(newer.at(-1)!);
  await expect(pick.locator('option')).toHaveCount(20);
  await expect(pick.locator(`option[value="${firstOlder.id}"]`)).toHaveCount(0);

  await region.getByRole('button', { name: `Show older backtests of ${first.title}` }).click();
  await expect(pick.locator(`option[value="${firstOlder.id}"]`)).toHaveCount(1);
  // The list ends with that page: nothing older to ask for.
  await expect(region.getByRole('button', { name: `Show older backtests of ${first.title}` })).toHaveCount(0);
  await pick.selectOption(firstOlder.id);
  await expectFiguresOver(
    page,
    region,
    [
      { title: first.title, equity: firstOlder.equity! },
      { title: second.title, equity: secondRun.equity! },
    ],
    '2021-01-04',
    '2021-12-31',
  );
});

test('at a 360 px side panel the equity chart fits, with readable date and percent labels inside it', async ({
  extension,
  sandbox,
}, testInfo) => {
  await extension.configure();
  const { playbooks } = demoPlaybooks(sandbox);
  const page = await extension.open(`sidepanel.html?playbook=${encodeURIComponent(playbooks[0].id)}`);
  await page.setViewportSize({ width: 360, height: 800 });
  const figure = page.getByRole('region', { name: 'Backtests' }).getByRole('img', { name: 'Equity curve' });
  await expect(figure.locator('path')).toHaveCount(2);
  const labels = figure.locator('text');
  await expect(labels.filter({ hasText: /^0%$/ })).toHaveCount(1);
  await expect(labels.filter({ hasText: /\d{4}$/ }).first()).toBeVisible();
  const geometry = await figure.evaluate((svg) => {
    const box = svg.getBoundingClientRect();
    return {
      box: { left: box.left, right: box.right, top: box.top, bottom: box.bottom },
      labels: [...svg.querySelectorAll('text')].map((text) => {
        const r = text.getBoundingClientRect();
        return {
          text: text.textContent,
          left: r.left,
          right: r.right,
          top: r.top,
          bottom: r.bottom,
          height: r.height,
        };
      }),
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      viewport: document.documentElement.clientWidth,
    };
  });
  expect(geometry.overflow).toBeLessThanOrEqual(0);
  expect(geometry.box.right).toBeLessThanOrEqual(geometry.viewport);
  expect(geometry.labels.length).toBeGreaterThanOrEqual(4);
  for (const label of geometry.labels) {
    // Drawn at about the panel's text size (11 px in a viewBox near the panel's width), never cut by the chart's edge.
    expect(label.height, label.text ?? '').toBeGreaterThanOrEqual(10);
    expect(label.left, label.text ?? '').toBeGreaterThanOrEqual(geometry.box.left);
    expect(label.right, label.text ?? '').toBeLessThanOrEqual(geometry.box.right);
    expect(label.top, label.text ?? '').toBeGreaterThanOrEqual(geometry.box.top);
    expect(label.bottom, label.text ?? '').toBeLessThanOrEqual(geometry.box.bottom);
  }
  // For a person to look at: the chart in light and dark.
  await figure.locator('..').screenshot({ path: testInfo.outputPath('equity-chart-360-light.png') });
  await page.emulateMedia({ colorScheme: 'dark' });
  await figure.locator('..').screenshot({ path: testInfo.outputPath('equity-chart-360-dark.png') });
});
