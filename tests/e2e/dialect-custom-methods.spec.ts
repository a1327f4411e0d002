import type { Page } from '@playwright/test';
import type { RecordedRequest, Sandbox } from '../../sandbox/server';
import { NEW_PLAYBOOK, confirmPause, confirmWindowFrom, queueCreate, uniqueTitle } from './helpers/flows';
import { expect, test } from './helpers/proof';
import { PopupPage, SidePanelPage } from './pages/surfaces';

/**
 * The main journeys against dialect c, a service in the AIP-136 style: its writes are custom
 * methods (`/strategies/{name}:goLive`, `:halt`, `:backtest`), its batch read a custom method of
 * the collection (`/strategies:batchGet`), its event stream `/events:stream`, under /api/v3.
 * Such a document is honest: no request path matches two of its operations.
 */
test.use({ dialect: 'c' });

const PREFIX = '/api/v3';

const apiCalls = (sandbox: Sandbox): RecordedRequest[] =>
  sandbox.requests().filter((r) => r.path.startsWith('/api/') && r.method !== 'OPTIONS');

const posts = (sandbox: Sandbox): string[] =>
  apiCalls(sandbox)
    .filter((r) => r.method === 'POST')
    .map((r) => r.path);

function demoPlaybook(sandbox: Sandbox, index: number) {
  const user = sandbox.db.userForKey(sandbox.demoKey);
  if (!user) throw new Error('no demo user');
  return sandbox.db.listPlaybooks({ ownerId: user.id }, null, 20).rows[index];
}

async function openDetail(
  extension: { open(page: string): Promise<Page> },
  playbook: { id: string; title: string },
) {
  const panel = await extension.open(`sidepanel.html?playbook=${encodeURIComponent(playbook.id)}`);
  await expect(panel.getByRole('heading', { name: playbook.title })).toBeVisible();
  return panel;
}

test('popup: the list and Load more, at the dialect’s paths and within its bounds', async ({
  extension,
  sandbox,
}) => {
  await extension.configure();
  sandbox.clearRequests();
  const popup = await extension.open('popup.html');
  const rows = popup.getByRole('list', { name: 'Playbooks' }).getByRole('listitem');
  await expect(rows.first()).toBeVisible();
  await new PopupPage(popup).refreshed();
  await expect(popup.getByText(/document is refused|could not be trusted/i)).toHaveCount(0);
  const first = await rows.count();
  await popup.getByRole('button', { name: 'Load more' }).click();
  await expect.poll(() => rows.count()).toBeGreaterThan(first);
  const lists = apiCalls(sandbox).filter((r) => r.method === 'GET' && r.path === `${PREFIX}/strategies`);
  expect(lists.length).toBeGreaterThanOrEqual(2);
  for (const list of lists) {
    const limit = new URLSearchParams(list.query).get('limit');
    if (limit !== null) expect(Number(limit)).toBeLessThanOrEqual(50);
  }
  expect(apiCalls(sandbox).filter((r) => !r.path.startsWith(`${PREFIX}/`))).toEqual([]);
});

test('a create through the confirm window lands once at the collection', async ({
  context,
  sandbox,
  extension,
  probe,
}) => {
  await extension.configure();
  sandbox.clearRequests();
  const title = uniqueTitle('Dialect c create');
  const { confirm } = await queueCreate(context, probe, { ...NEW_PLAYBOOK, title });
  await expect(confirm.confirm).toBeEnabled();
  await confirm.confirm.click();
  await expect(confirm.page.getByRole('status')).toContainText('Sent');
  expect(posts(sandbox)).toEqual([`${PREFIX}/strategies`]);
  const user = sandbox.db.userForKey(sandbox.demoKey)!;
  const created = sandbox.db
    .listPlaybooks({ ownerId: user.id }, null, 1000)
    .rows.filter((p) => p.title === title);
  expect(created).toHaveLength(1);
});

test('activate and pause go to :goLive and :halt, each once', async ({ context, extension, sandbox }) => {
  await extension.configure();
  const target = demoPlaybook(sandbox, 2);
  sandbox.db.updatePlaybook(target.id, { status: 'paused' });
  sandbox.db.setBrokerageLinked(sandbox.db.userForKey(sandbox.demoKey)!.id, true);
  const panel = await openDetail(extension, target);
  sandbox.clearRequests();

  const activate = await confirmWindowFrom(context, () =>
    panel.getByRole('button', { name: 'Activate live automation' }).click(),
  );
  await activate.dialog.getByLabel(`Type “${target.title}” to confirm`).fill(target.title);
  await activate.confirm.click();
  await expect(activate.page.getByRole('status')).toContainText('Sent');
  expect(posts(sandbox)).toEqual([`${PREFIX}/strategies/${target.id}:goLive`]);
  expect(sandbox.db.getPlaybook(target.id)?.status).toBe('active');

  const pause = await confirmWindowFrom(context, () =>
    panel.getByRole('button', { name: 'Pause live automation' }).click(),
  );
  await confirmPause(pause);
  await expect(pause.page.getByRole('status')).toContainText('Sent');
  expect(posts(sandbox)).toEqual([
    `${PREFIX}/strategies/${target.id}:goLive`,
    `${PREFIX}/strategies/${target.id}:halt`,
  ]);
  expect(sandbox.db.getPlaybook(target.id)?.status).toBe('paused');
});

test('a backtest runs at :backtest and its completion arrives on the event stream', async ({
  context,
  extension,
  sandbox,
}) => {
  await extension.configure();
  const target = demoPlaybook(sandbox, 1);
  const page = await openDetail(extension, target);
  const panel = new SidePanelPage(page);
  await expect(
    page
      .getByRole('tabpanel', { name: 'Events', includeHidden: true })
      .getByRole('status', { includeHidden: true }),
  ).toContainText('Live');
  const streams = sandbox
    .requests()
    .filter((r) => r.method === 'GET' && r.path === `${PREFIX}/events:stream`);
  expect(streams.length).toBeGreaterThan(0);
  sandbox.clearRequests();

  const confirm = await confirmWindowFrom(context, () =>
    page.getByRole('form', { name: 'Backtest' }).getByRole('button', { name: 'Run backtest' }).click(),
  );
  await expect(confirm.confirm).toBeEnabled();
  await confirm.confirm.click();
  await expect(confirm.page.getByRole('status')).toContainText('Sent');
  expect(posts(sandbox)).toEqual([`${PREFIX}/strategies/${target.id}:backtest`]);
  const ownerId = sandbox.db.userForKey(sandbox.demoKey)!.id;
  await panel.expectNewestRunCompleted(() => sandbox.db.backtests.list(target.id, ownerId, null, 1).rows[0]);

  const run = sandbox.db.backtests.list(target.id, ownerId, null, 1).rows[0];
  await panel.tab('Events').click();
  const item = page
    .getByRole('list', { name: 'Events' })
    .getByRole('listitem')
    .filter({ hasText: 'Backtest completed' })
    .filter({ hasText: run.id });
  // Its Details line says how it arrived.
  await expect(item.locator('details')).toContainText('arrived by the live stream');
});
