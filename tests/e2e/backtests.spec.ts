import type { BrowserContext, Page } from '@playwright/test';
import type { Sandbox } from '../../sandbox/server';
import { ConfirmPage } from './pages/surfaces';
import { expect, test } from './fixtures';

/** The demo user's playbooks, newest first: the seed gives the newest four a backtest history. */
function demoPlaybooks(sandbox: Sandbox) {
  const user = sandbox.db.userForKey(sandbox.demoKey);
  if (!user) throw new Error('no demo user');
  return { userId: user.id, playbooks: sandbox.db.listPlaybooks({ ownerId: user.id }, null, 20).rows };
}

/** Figures as the page formats them: the browser's locale, percentages to one decimal. */
async function percent(page: Page, fraction: number, signed: boolean): Promise<string> {
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

/** Growth of 1.0 as the readout shows it: three decimals in the browser's locale. */
async function growth(page: Page, value: number): Promise<string> {
  return page.evaluate(
    (value) =>
      new Intl.NumberFormat(undefined, { minimumFractionDigits: 3, maximumFractionDigits: 3 }).format(value),
    value,
  );
}

async function confirmNextWrite(context: BrowserContext, act: () => Promise<void>): Promise<void> {
  const opened = context.waitForEvent('page', { predicate: (p) => p.url().includes('/confirm.html') });
  await act();
  const confirm = new ConfirmPage(await opened);
  await expect(confirm.confirm).toBeEnabled();
  await confirm.confirm.click();
  await expect(confirm.page.getByRole('status')).toContainText('Sent');
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
  await expect(items.nth(0)).toContainText('completed');
  await expect(items.nth(0)).toContainText(`vs ${latest.benchmark}`);
  await expect(items.nth(1)).toContainText('failed');
  await expect(items.nth(2)).toContainText('completed');

  const figure = region.getByRole('img', { name: 'Equity curve' });
  await expect(figure).toBeVisible();
  await expect(figure.locator('path')).toHaveCount(2);
  const metrics = latest.metrics!;
  for (const [term, value] of [
    ['Total return', await percent(page, metrics.total_return, true)],
    ['Benchmark return', await percent(page, metrics.benchmark_return, true)],
    ['Max drawdown', await percent(page, metrics.max_drawdown, false)],
  ] as const)
    await expect(region.locator('dt', { hasText: term }).locator('+ dd')).toHaveText(value);
  await expect(region.locator('dt', { hasText: 'Sharpe ratio' })).toBeVisible();
  await expect(region).toContainText('do not predict future results');

  // Keyboard: the figure takes focus and reads out the last day, then the one before.
  await figure.focus();
  const readout = region.locator('.chart-readout');
  const last = latest.equity!.at(-1)!;
  await expect(readout).toContainText(`Playbook ${await growth(page, last.value)}`);
  await page.keyboard.press('ArrowLeft');
  await expect(readout).toContainText(`Playbook ${await growth(page, latest.equity!.at(-2)!.value)}`);

  await region.getByRole('button', { name: 'Show data' }).click();
  const table = region.getByRole('table', { name: 'Equity curve data' });
  await expect(table.getByRole('columnheader')).toHaveText(['Date', 'Playbook', 'Benchmark']);
  await expect(table.getByRole('row')).toHaveCount(latest.equity!.length + 1);

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
  await confirmNextWrite(context, () => form.getByRole('button', { name: 'Run backtest' }).click());

  const items = region.getByRole('list', { name: 'Backtest runs' }).getByRole('listitem');
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText('vs QQQ');
  // Completed through the event: the list, the curve and the figures of this run.
  await expect(items.first()).toContainText('completed', { timeout: 15_000 });
  const [run] = sandbox.db.backtests.list(target.id, userId, null, 5).rows;
  expect(run).toMatchObject({
    status: 'completed',
    start: '2021-01-04',
    end: '2023-12-29',
    benchmark: 'QQQ',
  });
  await expect(region.getByRole('img', { name: 'Equity curve' })).toBeVisible();
  await expect(region.locator('dt', { hasText: 'Total return' }).locator('+ dd')).toHaveText(
    await percent(page, run.metrics!.total_return, true),
  );
  // The notification says the result in one line.
  const m = run.metrics!;
  const line = `${await percent(page, m.total_return, true)} vs QQQ ${await percent(page, m.benchmark_return, true)}, max drawdown ${await percent(page, m.max_drawdown, false)}`;
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
  await expect(total).toHaveText(await percent(page, older.metrics!.total_return, true));
  await expect(region.getByRole('img', { name: 'Equity curve' }).locator('path')).toHaveCount(2);

  const shows = region.getByRole('button', { name: /^Show the result of/ });
  await expect(shows).toHaveCount(completed.length);
  await expect(shows.nth(1)).toHaveAttribute('aria-pressed', 'true');
  await shows.nth(0).click();
  await expect(shows.nth(0)).toHaveAttribute('aria-pressed', 'true');
  await expect(total).toHaveText(await percent(page, latest.metrics!.total_return, true));
});

test('comparing two playbooks: one curve each, rebased, and a metrics row each', async ({
  extension,
  sandbox,
}) => {
  await extension.configure();
  const { playbooks } = demoPlaybooks(sandbox);
  const [first, , third] = playbooks;
  const page = await extension.open('sidepanel.html');
  const list = page.getByRole('list', { name: 'Playbooks' });
  await expect(list.getByRole('button', { name: first.title })).toBeVisible();
  const compare = page.getByRole('button', { name: 'Compare', exact: true });
  await expect(compare).toBeDisabled();
  await page.getByRole('checkbox', { name: `Compare ${first.title}` }).check();
  await expect(compare).toBeDisabled();
  await page.getByRole('checkbox', { name: `Compare ${third.title}` }).check();
  await compare.click();

  const region = page.getByRole('region', { name: 'Comparison' });
  const chart = region.getByRole('img', { name: 'Comparison chart' });
  await expect(chart).toBeVisible();
  await expect(chart.locator('path')).toHaveCount(2);
  await chart.focus();
  await page.keyboard.press('Home');
  await expect(region.locator('.chart-readout')).toContainText(`${first.title} 1.000`);
  await expect(region.locator('.chart-readout')).toContainText(`${third.title} 1.000`);
  const rows = region.getByRole('table', { name: 'Comparison metrics' }).getByRole('row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1).getByRole('rowheader')).toContainText(first.title);
  await expect(rows.nth(2).getByRole('rowheader')).toContainText(third.title);
  // Each playbook's own figures, under their headers.
  const { userId } = demoPlaybooks(sandbox);
  for (const [row, playbook] of [
    [1, first],
    [2, third],
  ] as const) {
    const newest = sandbox.db.backtests
      .list(playbook.id, userId, null, 20)
      .rows.find((r) => r.status === 'completed')!;
    await expect(rows.nth(row).getByRole('cell')).toHaveText([
      await percent(page, newest.metrics!.total_return, true),
      await percent(page, newest.metrics!.benchmark_return, true),
      await percent(page, newest.metrics!.max_drawdown, false),
      /\d/,
    ]);
  }
  await expect(region).toContainText('do not predict future results');

  // A 400 px side panel: the metrics table fits without sideways scrolling, its headers keeping their names.
  await page.setViewportSize({ width: 400, height: 800 });
  const table = region.getByRole('table', { name: 'Comparison metrics' });
  await expect(table.getByRole('columnheader')).toHaveCount(5);
  for (const name of ['Playbook', 'Total return', 'Benchmark return', 'Max drawdown', 'Sharpe ratio'])
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
