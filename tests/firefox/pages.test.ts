/**
 * Firefox journeys through the extension's own pages: options, popup, sidebar page and events.
 * One Firefox for the file; a fresh sandbox per test, which the extension is pointed at.
 */
import { expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/server';
import { DEMO_USER_ID } from '../../sandbox/store';
import { admin, configure, firefoxPerFile, textOf, typeInto, until } from './harness';

/** Resolves once the sandbox has seen no API request for 800 ms. */
async function quietApi(sandbox: Sandbox): Promise<void> {
  await until(() => {
    const last =
      sandbox
        .requests()
        .filter((r) => r.path.startsWith('/api/'))
        .at(-1)?.at ?? 0;
    return Date.now() - last > 800;
  }, 'the API to go quiet');
}

const session = firefoxPerFile();

it('options: the manifest-granted sandbox needs no access, and Save stores the service and the key', async () => {
  const { firefox } = session;
  const sandbox = await session.newSandbox();
  const options = await firefox.open('options.html', 'form');
  await options.waitForSelector('::-p-text(No key stored yet.)');
  // The default service (127.0.0.1:8787) is granted by the manifest: no "Access needed".
  expect(await textOf(options)).not.toContain('Access needed');

  await typeInto(options, 'Service URL', sandbox.baseUrl);
  await typeInto(options, 'API URL', sandbox.apiUrl);
  await typeInto(options, 'API key', sandbox.demoKey);
  await options.locator('::-p-aria(Save[role="button"])').click();
  await options.waitForSelector('::-p-text(Saved. Everything cached from the previous service was cleared.)');
  expect(await textOf(options)).not.toContain('Access needed');

  const state = await firefox.send('getState');
  expect(state).toMatchObject({
    ok: true,
    value: {
      settings: { serviceUrl: sandbox.baseUrl, apiUrl: sandbox.apiUrl },
      key: { set: true, savedAt: expect.any(Number) },
      hostAccess: { missingOrigins: [] },
    },
  });
  // A reopened options page shows the stored service and when the key was saved, no character of it.
  const again = await firefox.open('options.html', 'form');
  await again.waitForSelector('::-p-text(A key saved on)');
  expect(await again.$eval('input[type="url"], input', (input) => input.value)).toBe(sandbox.baseUrl);
  expect(await textOf(again)).not.toContain(sandbox.demoKey.slice(-6));
});

it('popup: the list, "Load more" across a 429, and the access state', async () => {
  const { firefox } = session;
  const sandbox = await session.newSandbox();
  await configure(firefox, sandbox);
  const expected = sandbox.db.listPlaybooks({ ownerId: DEMO_USER_ID }, null, 1000).rows;
  expect(expected.length).toBeGreaterThan(20); // two pages
  const popup = await firefox.open('popup.html', 'main');
  const rows = () => popup.$$eval('[aria-label="Playbooks"] > li', (items) => items.length);
  await until(async () => (await rows()) === 20, '20 rows');
  await popup.waitForSelector(`::-p-text(${expected[0].title})`);
  // The account and the rest of the record sit behind the status line's "Details".
  await popup.locator('[aria-label="Service status"] summary').click();
  const status = await until(async () => {
    const text = await textOf(popup, '[aria-label="Service status"]');
    return text.includes('Operational') && text.includes('Demo Investor') ? text : '';
  }, 'the service status');
  expect(status).not.toContain('Not yet granted');

  // The 429 must meet "Load more", not the popup's own first calls: wait until they are done. The
  // rows and the status above may be the saved copy, drawn before the popup's refresh was even
  // sent (a quiet spell could pass before it): its answer says "Updated just now"; then the quiet
  // spell covers the reads Save started, which it does not wait for.
  await popup.waitForSelector('::-p-text(Updated just now)');
  await quietApi(sandbox);
  sandbox.clearRequests();
  sandbox.setFaults({ rateLimitBurst: 1, retryAfterSeconds: 1 });
  await popup.locator('::-p-aria(Load more[role="button"])').click();
  await until(async () => (await rows()) === expected.length, 'every row after Load more', 20_000);
  await popup.waitForSelector(`::-p-text(${expected.at(-1)!.title})`);
  await popup.waitForSelector(`::-p-text(All ${expected.length} shown)`);
  // The 429 was waited out: the same page asked twice, the retry after the advertised second.
  const pages = sandbox
    .requests()
    .filter((r) => r.path === '/api/v1/playbooks' && r.query.includes('cursor'));
  expect(pages).toHaveLength(2);
  expect(pages[1].at - pages[0].at).toBeGreaterThanOrEqual(900);
  expect(pages[1].query).toBe(pages[0].query);
});

it('sidebar page: Playbooks, Discovery and Events tabs render the service, and an event arrives live', async () => {
  const { firefox } = session;
  const sandbox = await session.newSandbox();
  await configure(firefox, sandbox);
  const [first] = sandbox.db.listPlaybooks({ ownerId: DEMO_USER_ID }, null, 1).rows;
  const panel = await firefox.open('sidepanel.html', 'main');
  const selected = await panel.waitForSelector('[role="tab"][aria-selected="true"]');
  expect(await selected?.evaluate((tab) => tab.textContent)).toContain('Playbooks');
  await panel.locator(`::-p-aria(${first.title}[role="button"])`).click();
  await panel.waitForSelector(`::-p-aria(${first.title}[role="heading"])`);

  await panel.locator('::-p-aria(Discovery[role="tab"])').click();
  // The tab opens on what the service offers; the fetch log is behind its Details.
  await panel.waitForSelector('::-p-aria(Pricing[role="region"])');
  await panel.locator('.discovery-details > summary').click();
  await panel.waitForSelector('[aria-label="Discovery run"] li');
  expect(await textOf(panel, '[aria-label="Discovery run"]')).toContain('llms.txt');
  await panel.waitForSelector('::-p-text(Verified)');

  // An event arrives over the live stream while another tab is showing: the badge counts it.
  await until(() => sandbox.requests().some((r) => r.path.endsWith('/events/stream')), 'the event stream');
  const sent = (await admin(sandbox, 'events', {
    playbook_id: first.id,
    type: 'backtest.completed',
    data: { backtest_id: 'bt_firefox_probe' },
  })) as { id: string };
  expect(sent.id).toBeTruthy();
  const badge = () =>
    firefox.inExtension(
      () =>
        (
          globalThis as unknown as {
            browser: { browserAction: { getBadgeText(details: object): Promise<string> } };
          }
        ).browser.browserAction.getBadgeText({}),
      undefined,
    );
  await until(async () => (await badge()) === '1', 'badge 1');

  await panel.locator('::-p-aria(Events[role="tab"])').click();
  await panel.waitForSelector('::-p-text(bt_firefox_probe)');
  const events = await textOf(panel, '[aria-label="Events"]');
  expect(events).toContain('Backtest completed');
  // In the user's terms: the playbook by its title, no transport jargon; the ids stay under Details.
  expect(events).not.toContain('via live stream');
  expect(events).toContain(`Open “${first.title}”`);
  expect(await textOf(panel, '[role="tabpanel"]:not([hidden])')).toContain('Live');
  // Seen: the Events tab clears the badge.
  await until(async () => (await badge()) === '', 'badge cleared');
});

it('sidebar page: a seeded backtest shows its runs, equity curve, figures and data table', async () => {
  const { firefox } = session;
  const sandbox = await session.newSandbox();
  await configure(firefox, sandbox);
  const [newest] = sandbox.db.listPlaybooks({ ownerId: DEMO_USER_ID }, null, 1).rows;
  const runs = sandbox.db.backtests.list(newest.id, DEMO_USER_ID, null, 20).rows;
  const latest = sandbox.db.backtests.get(runs.find((r) => r.status === 'completed')!.id, DEMO_USER_ID)!;
  const panel = await firefox.open(`sidepanel.html?playbook=${encodeURIComponent(newest.id)}`, 'main');
  await panel.waitForSelector('svg[role="img"][aria-label="Equity curve"]');
  const region = await textOf(panel, '[aria-label="Backtests"]');
  expect(region).toContain('Failed');
  expect(region).toContain(`vs ${latest.benchmark}`);
  for (const term of ['Total return', 'Benchmark return', 'Max drawdown', 'Sharpe ratio'])
    expect(region).toContain(term);
  expect(region).toContain('do not predict future results');
  expect(await panel.$$eval('[aria-label="Equity curve"] path', (paths) => paths.length)).toBe(2);

  // Keyboard: the figure takes focus and reads out the last day's return (the real minus for a loss).
  // (An SVG element: puppeteer's focus() takes HTML elements only, so the page focuses it; no tabindex, no focus.)
  await panel.$eval('svg[aria-label="Equity curve"]', (svg) => (svg as SVGElement).focus());
  const lastReturn = new Intl.NumberFormat(await panel.evaluate(() => navigator.language), {
    style: 'percent',
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
    signDisplay: 'exceptZero',
  })
    // Settled to 12 decimals first, as lib/i18n/format.ts does (1.1945 − 1 is 0.19449999…).
    .format(Math.round((latest.equity!.at(-1)!.value - 1) * 1e12) / 1e12)
    .replace(/-/g, '\u2212');
  await until(
    async () => (await textOf(panel, '.chart-readout')).includes(`Playbook ${lastReturn}`),
    'the readout of the last day',
  );
  await panel.locator('::-p-aria(Show data[role="button"])').click();
  await panel.waitForSelector('[aria-label="Equity curve data"]');
  expect(await panel.$$eval('[aria-label="Equity curve data"] tr', (rows) => rows.length)).toBe(
    latest.equity!.length + 1,
  );
});
