import type { Page } from '@playwright/test';
import type { Sandbox } from '../../sandbox/server';
import { SidePanelPage } from './pages/surfaces';
import { expect, test } from './fixtures';
import { confirmNextWrite } from './helpers/flows';

function demoPlaybooks(sandbox: Sandbox) {
  const user = sandbox.db.userForKey(sandbox.demoKey);
  if (!user) throw new Error('no demo user');
  return sandbox.db.listPlaybooks({ ownerId: user.id }, null, 20).rows;
}

async function sendFrom(page: Page, type: string, payload: unknown): Promise<unknown> {
  return page.evaluate(
    async ({ type, payload }) => {
      const answer = await chrome.runtime.sendMessage<
        unknown,
        { ok: boolean; value?: unknown; error?: unknown }
      >({
        type,
        payload,
      });
      if (!answer.ok) throw new Error(JSON.stringify(answer.error));
      return answer.value;
    },
    { type, payload },
  );
}

test('each tab renders the service’s real data, and documents render inert', async ({
  extension,
  sandbox,
}) => {
  await extension.configure();
  const [first] = demoPlaybooks(sandbox);
  const page = await extension.open('sidepanel.html');
  const panel = new SidePanelPage(page);

  await expect(panel.tab('Playbooks')).toHaveAttribute('aria-selected', 'true');
  const list = page.getByRole('list', { name: 'Playbooks' });
  await expect(list.getByRole('button', { name: first.title })).toBeVisible();
  await list.getByRole('button', { name: first.title }).click();
  await expect(page.getByRole('heading', { name: first.title })).toBeVisible();
  await expect(page.getByText(first.thesis.slice(0, 40))).toBeVisible();

  await panel.tab('Discovery').click();
  // It opens on what the service offers: prices, skills and tools; the fetch log is behind Details.
  const discovery = page.getByRole('tabpanel', { name: 'Discovery' });
  await expect(discovery.getByRole('region', { name: 'Pricing' }).getByRole('table')).toBeVisible();
  await expect(discovery.getByRole('region', { name: 'Tools' })).toBeVisible();
  const timeline = page.getByRole('list', { name: 'Discovery run' });
  await expect(timeline).toBeHidden();
  await discovery.locator('.discovery-details > summary').click();
  await expect(timeline.getByRole('listitem').first()).toContainText('llms.txt');
  // The recommended order: product context first, the OpenAPI document before pricing, auth.md after the skills.
  const titles = await timeline.locator(':scope > li strong').allTextContents();
  expect(titles.indexOf('OpenAPI document')).toBeLessThan(titles.indexOf('Pricing'));
  expect(titles.indexOf('Pricing')).toBeLessThan(titles.indexOf('Authentication'));
  const pricing = page.getByRole('region', { name: 'Pricing' });
  await expect(pricing.getByRole('row')).not.toHaveCount(1);
  await expect(page.getByRole('list', { name: 'Skills' }).getByText('verified').first()).toBeVisible();
  await expect(
    page.getByRole('list', { name: 'Agent card links' }).getByRole('link').first(),
  ).toHaveAttribute('target', '_blank');
  await expect(page.getByRole('region', { name: 'Deprecations' })).toBeVisible();
  // Open every document, then check nothing executable reached the page.
  for (const summary of await page
    .locator('#panel-discovery details:not(.discovery-details) > summary')
    .all())
    await summary.click();
  await expect(page.getByRole('heading', { name: 'Authentication' }).first()).toBeVisible();
  expect(await page.locator('#panel-discovery script, #panel-discovery iframe').count()).toBe(0);
  const hrefs = await page
    .locator('#panel-discovery a')
    .evaluateAll((links) =>
      links.map((a) => [a.getAttribute('href') ?? '', a.getAttribute('target'), a.getAttribute('rel')]),
    );
  expect(hrefs.length).toBeGreaterThan(5);
  for (const [href, target, rel] of hrefs) {
    expect(href).toMatch(/^(https?:|mailto:)/);
    expect(target).toBe('_blank');
    expect(rel).toContain('noopener');
  }

  await panel.tab('Events').click();
  await expect(page.getByRole('tabpanel', { name: 'Events' }).getByRole('status').first()).toContainText(
    'Live',
  );
  await expect(page.locator('main > p.disclaimer')).toHaveText('Decision support, not financial advice.');
});

test('offline, a playbook seen before opens from the cache: marked, its writes disabled with the reason', async ({
  extension,
  sandbox,
}) => {
  await extension.configure();
  const [first, second] = demoPlaybooks(sandbox);
  const page = await extension.open('sidepanel.html');
  const list = page.getByRole('list', { name: 'Playbooks' });
  await list.getByRole('button', { name: first.title }).click();
  await expect(page.getByRole('heading', { name: first.title })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save changes' })).toBeEnabled();
  // Its sections read once online: the read model keeps them for offline.
  for (const reading of ['Reading performance since capture…', 'Reading catalysts…', 'Loading backtests…'])
    await expect(page.getByText(reading)).toBeHidden({ timeout: 30_000 });

  // The service goes away: every connection is reset.
  sandbox.setFaults({ resetConnection: 99 });
  try {
    await page.reload();
    // The list from the read model's cache, then the playbook opened before, from the same cache.
    await expect(list.getByRole('button', { name: second.title })).toBeVisible({ timeout: 30_000 });
    await list.getByRole('button', { name: first.title }).click();
    await expect(page.getByRole('heading', { name: first.title })).toBeVisible({ timeout: 30_000 });
    // The header and each section seen before, marked as the saved copy; no red alert for them.
    await expect(page.getByText(/^Cached · saved /)).toHaveCount(4);
    for (const region of ['Since captured', 'Catalysts', 'Backtests'])
      await expect(page.getByRole('region', { name: region }).getByText(/^Cached · saved /)).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
    const reason = page.getByText('Service out of reach: you can make changes once it answers again.');
    await expect(reason).toBeVisible();
    const reasonId = await reason.getAttribute('id');
    for (const name of ['Save changes', 'Run backtest']) {
      const button = page.getByRole('button', { name });
      await expect(button).toBeDisabled();
      await expect(button).toHaveAttribute('aria-describedby', reasonId ?? '');
    }
    // No dead end: the detail's read failed, and says so only under the mark's Details.
    await expect(page.getByText(/getPlaybook failed/)).toBeHidden();
  } finally {
    sandbox.resetFaults();
  }
});

test('editing with a stale etag shows the conflict and changes nothing', async ({
  context,
  extension,
  sandbox,
}) => {
  await extension.configure();
  const [target] = demoPlaybooks(sandbox);
  const page = await extension.open(`sidepanel.html?playbook=${encodeURIComponent(target.id)}`);
  await expect(page.getByRole('heading', { name: target.title })).toBeVisible();
  const loadedEtag = target.etag;
  // Someone else changes the playbook after the panel read it.
  const changed = sandbox.db.updatePlaybook(target.id, { thesis: `${target.thesis} (edited elsewhere)` });
  expect(changed.etag).not.toBe(loadedEtag);
  sandbox.clearRequests();

  const edit = page.getByRole('form', { name: 'Edit playbook' });
  await edit.getByLabel('Title').fill('My stale edit');
  const confirm = await confirmNextWrite(context, () =>
    edit.getByRole('button', { name: 'Save changes' }).click(),
  );
  await expect(confirm.page.getByText(/changed since it was read/)).toBeVisible();

  await expect(page.getByRole('alert')).toContainText('Edit conflict');
  await expect(page.getByRole('button', { name: 'Reload playbook' })).toBeVisible();
  const patches = sandbox.requests().filter((r) => r.method === 'PATCH');
  expect(patches).toHaveLength(1);
  expect(patches[0].headers['if-match']).toBe(loadedEtag);
  expect(sandbox.db.getPlaybook(target.id)?.title).toBe(target.title);

  await page.getByRole('button', { name: 'Reload playbook' }).click();
  await expect(page.getByText('(edited elsewhere)')).toBeVisible();
});

test('a backtest’s completion arrives by SSE while the panel is open', async ({
  context,
  extension,
  sandbox,
}) => {
  await extension.configure();
  const [, target] = demoPlaybooks(sandbox);
  sandbox.clearRequests();
  const page = await extension.open(`sidepanel.html?playbook=${encodeURIComponent(target.id)}`);
  const panel = new SidePanelPage(page);
  await expect(page.getByRole('heading', { name: target.title })).toBeVisible();
  await expect(
    page
      .getByRole('tabpanel', { name: 'Events', includeHidden: true })
      .getByRole('status', { includeHidden: true }),
  ).toContainText('Live');

  const seqBefore = sandbox.db.latestEventSeq();
  const backtest = page.getByRole('form', { name: 'Backtest' });
  await confirmNextWrite(context, () => backtest.getByRole('button', { name: 'Run backtest' }).click());
  await expect(page.getByRole('status').filter({ hasText: 'The backtest was sent' })).toBeVisible();
  // The detail follows the completion through events: the new run completes in the Backtests region.
  const ownerId = sandbox.db.userForKey(sandbox.demoKey)!.id;
  await panel.expectNewestRunCompleted(() => sandbox.db.backtests.list(target.id, ownerId, null, 1).rows[0]);

  await panel.tab('Events').click();
  // The worker's sandbox is shared: earlier tests' events may be listed too, so pick this run's by its id.
  const completed = sandbox.db
    .eventsAfter(ownerId, seqBefore, 100)
    .events.find((event) => event.type === 'backtest.completed');
  expect(completed).toBeDefined();
  const item = page
    .getByRole('list', { name: 'Events' })
    .getByRole('listitem')
    .filter({ hasText: 'Backtest completed' })
    .filter({ hasText: String(completed!.data.backtest_id) });
  // In the user's terms: the result as percentages and the playbook by its title; no ids, no transport.
  await expect(item).toContainText(/Return [+−]?\d+\.\d%/);
  await expect(item).not.toContainText('via live stream');
  const open = item.getByRole('link', { name: `Open “${target.title}”` });
  await expect(open).toBeVisible();
  expect(await open.textContent()).not.toContain(target.id);
  const streams = sandbox.requests().filter((r) => r.path.endsWith('/events/stream'));
  expect(streams.length).toBeGreaterThan(0);
  expect(sandbox.requests().filter((r) => r.path.endsWith('/backtests') && r.method === 'POST')).toHaveLength(
    1,
  );

  await open.click();
  await expect(panel.tab('Playbooks')).toHaveAttribute('aria-selected', 'true');
});

test('with no panel open, polling picks up a completed backtest; the badge counts it', async ({
  context,
  extension,
  sandbox,
  serviceWorker,
}) => {
  await extension.configure();
  const [, , target] = demoPlaybooks(sandbox);
  const vehicle = await extension.open('options.html');
  const seqBefore = sandbox.db.latestEventSeq();
  await confirmNextWrite(context, async () => {
    await sendFrom(vehicle, 'requestWrite', {
      operationId: 'runBacktest',
      playbookId: target.id,
      body: { start: '2024-01-02', end: '2024-12-31' },
    });
  });
  sandbox.clearRequests();
  // The alarm's work, triggered now: poll listEvents from the stored cursor until the completion is in.
  await expect
    .poll(
      async () => {
        await sendFrom(vehicle, 'pollEventsNow', {});
        const feed = (await sendFrom(vehicle, 'getEventFeed', {})) as {
          events: { id: string; type: string; playbook_id: string }[];
        };
        // This run's completion, not one an earlier test left in the worker's shared sandbox.
        const ownerId = sandbox.db.userForKey(sandbox.demoKey)!.id;
        const mine = sandbox.db
          .eventsAfter(ownerId, seqBefore, 100)
          .events.find((e) => e.type === 'backtest.completed' && e.playbook_id === target.id);
        return Boolean(mine && feed.events.some((e) => e.id === mine.id));
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  expect(sandbox.requests().some((r) => r.method === 'GET' && r.path.endsWith('/events'))).toBe(true);
  expect(sandbox.requests().some((r) => r.path.endsWith('/events/stream'))).toBe(false);
  const badge = await serviceWorker.evaluate(() => chrome.action.getBadgeText({}));
  expect(Number(badge)).toBeGreaterThanOrEqual(1);

  const page = await extension.open('sidepanel.html');
  await new SidePanelPage(page).tab('Events').click();
  const item = page
    .getByRole('list', { name: 'Events' })
    .getByRole('listitem')
    .filter({ hasText: 'Backtest completed' })
    .filter({ has: page.getByRole('link', { name: `Open “${target.title}”` }) });
  await expect(item).toBeVisible();
  await expect(item).not.toContainText('via polling');
  await expect.poll(() => serviceWorker.evaluate(() => chrome.action.getBadgeText({}))).toBe('');
});

test('a tampered skill shows “digest mismatch”', async ({ extension, sandbox }) => {
  sandbox.setFaults({ tamperedSkillDigest: true });
  try {
    await extension.configure();
    const page = await extension.open('sidepanel.html');
    await new SidePanelPage(page).tab('Discovery').click();
    const skills = page.getByRole('list', { name: 'Skills' });
    await expect(skills.getByText('digest mismatch')).toHaveCount(1);
    await expect(skills.getByText('Verified', { exact: true }).first()).toBeVisible();
  } finally {
    sandbox.resetFaults();
  }
});

test('an MCP tool called from a form generated from its schema returns and renders', async ({
  extension,
  sandbox,
}) => {
  await extension.configure();
  const [publicBook] = sandbox.db.searchPublicPlaybooks('', 1);
  const word = publicBook.title.split(/\s+/).find((w) => w.length > 3) ?? publicBook.title;
  const page = await extension.open('sidepanel.html');
  await new SidePanelPage(page).tab('Discovery').click();
  // The tool browser is part of the technical record, behind the tab's Details. Opened until its
  // tools show: a click while the report was still loading could land on a Details drawn again
  // closed once it arrived (one CI run waited a minute on a closed one).
  const details = page.locator('.discovery-details');
  const tools = page.getByRole('region', { name: 'MCP tools' });
  const tool = tools.getByText('search_public_playbooks', { exact: true });
  await expect(async () => {
    if (!(await details.evaluate((element) => (element as HTMLDetailsElement).open)))
      await details.locator('> summary').click();
    await expect(tool).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await tool.click();
  const form = tools.getByRole('form', { name: 'Call search_public_playbooks' });
  await form.getByRole('textbox', { name: 'query (required)' }).fill(word);
  await form.getByRole('textbox', { name: 'limit' }).fill('5');
  await form.getByRole('button', { name: 'Call search_public_playbooks' }).click();
  const result = form.getByRole('region', { name: 'Result of search_public_playbooks' });
  await expect(result).toContainText(publicBook.title);

  await form.getByRole('textbox', { name: 'limit' }).fill('500');
  await form.getByRole('button', { name: 'Call search_public_playbooks' }).click();
  await expect(form.getByText('At most 50.')).toBeVisible();
});
