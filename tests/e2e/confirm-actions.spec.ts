import type { BrowserContext, Page } from '@playwright/test';
import type { RecordedRequest } from '../../sandbox/server';
import { expect, test } from './fixtures';
import { confirmWindowFrom } from './helpers/flows';

interface ApiPlaybook {
  id: string;
  title: string;
  status: string;
  etag: string;
}

/** An extension page asks for a write, as the side panel's actions do; the confirm window opens. */
async function requestWrite(context: BrowserContext, from: Page, request: Record<string, unknown>) {
  const confirm = await confirmWindowFrom(context, async () => {
    const answer = await from.evaluate(
      (payload) => chrome.runtime.sendMessage<unknown, { ok: boolean }>({ type: 'requestWrite', payload }),
      request,
    );
    expect(answer.ok).toBe(true);
  });
  await expect(confirm.dialog).toContainText('Demo Investor');
  await expect(confirm.dialog).toContainText('Decision support, not financial advice');
  return confirm;
}

/** The newest playbook not yet live: the sandbox seeds ideas in several states. */
async function playbookNotLive(apiUrl: string, key: string): Promise<ApiPlaybook> {
  const response = await fetch(`${apiUrl}/playbooks?limit=20`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const { data } = (await response.json()) as { data: ApiPlaybook[] };
  const idle = data.find((playbook) => playbook.status !== 'active');
  if (!idle) throw new Error('every seeded playbook is live');
  return idle;
}

async function playbookById(apiUrl: string, key: string, id: string): Promise<ApiPlaybook> {
  const response = await fetch(`${apiUrl}/playbooks/${id}`, { headers: { authorization: `Bearer ${key}` } });
  return (await response.json()) as ApiPlaybook;
}

async function firstPlaybook(apiUrl: string, key: string): Promise<ApiPlaybook> {
  const response = await fetch(`${apiUrl}/playbooks?limit=1`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const { data } = (await response.json()) as { data: ApiPlaybook[] };
  return data[0];
}

const writesTo = (requests: RecordedRequest[], method: string, suffix: string) =>
  requests.filter((r) => r.method === method && r.path.endsWith(suffix));

test('an update shows what changes and is sent with If-Match', async ({ context, extension, sandbox }) => {
  await extension.configure();
  const playbook = await firstPlaybook(sandbox.apiUrl, sandbox.demoKey);
  sandbox.clearRequests();
  const from = await extension.open('options.html');
  const confirm = await requestWrite(context, from, {
    operationId: 'updatePlaybook',
    playbookId: playbook.id,
    body: { title: 'Renamed by the test' },
    ifMatch: playbook.etag,
  });
  const changes = confirm.dialog.getByRole('region', { name: 'Changes' });
  await expect(changes).toContainText(playbook.title);
  await expect(changes).toContainText('Renamed by the test');
  await confirm.confirm.click();
  await expect(confirm.page.getByRole('status')).toContainText('Sent');
  const [patch] = writesTo(sandbox.requests(), 'PATCH', `/playbooks/${playbook.id}`);
  expect(patch.headers['if-match']).toBe(playbook.etag);
  expect(JSON.parse(patch.body)).toEqual({ title: 'Renamed by the test' });
  expect((await firstPlaybook(sandbox.apiUrl, sandbox.demoKey)).title).toBe('Renamed by the test');
});

test('a backtest shows its dates and needs no typed name', async ({ context, extension, sandbox }) => {
  await extension.configure();
  const playbook = await firstPlaybook(sandbox.apiUrl, sandbox.demoKey);
  sandbox.clearRequests();
  const from = await extension.open('options.html');
  const confirm = await requestWrite(context, from, {
    operationId: 'runBacktest',
    playbookId: playbook.id,
    body: { start: '2020-01-01', end: '2024-12-31', benchmark: 'SPY' },
  });
  for (const text of ['runBacktest', 'Start date', 'Jan 1, 2020', 'Dec 31, 2024', 'SPY', 'Nothing is traded'])
    await expect(confirm.dialog).toContainText(text);
  await expect(confirm.dialog.getByLabel('Title')).toHaveCount(0);
  await confirm.confirm.click();
  await expect(confirm.page.getByRole('status')).toContainText('Sent');
  const posts = writesTo(sandbox.requests(), 'POST', '/backtests');
  expect(posts).toHaveLength(1);
  expect(JSON.parse(posts[0].body)).toEqual({ start: '2020-01-01', end: '2024-12-31', benchmark: 'SPY' });
});

test('live automation needs the playbook name typed, says what happens, and shows a refusal', async ({
  context,
  extension,
  sandbox,
}) => {
  await extension.configure();
  const playbook = await playbookNotLive(sandbox.apiUrl, sandbox.demoKey);
  const user = sandbox.db.userForKey(sandbox.demoKey);
  if (!user) throw new Error('no demo user');
  // Linked when the window opens (an unlinked account is told so first: confirm-dialog.spec.ts).
  sandbox.db.setBrokerageLinked(user.id, true);
  sandbox.clearRequests();
  const from = await extension.open('options.html');
  const confirm = await requestWrite(context, from, {
    operationId: 'activatePlaybook',
    playbookId: playbook.id,
  });
  await expect(confirm.dialog).toContainText('may place real orders');
  // Unlinked meanwhile (in another tab): the service's refusal is what the window shows.
  sandbox.db.setBrokerageLinked(user.id, false);
  const typed = confirm.dialog.getByLabel(`Type “${playbook.title}” to confirm`);
  await expect(confirm.confirm).toBeDisabled();
  await typed.fill(`${playbook.title} nope`);
  await expect(confirm.confirm).toBeDisabled();
  expect(writesTo(sandbox.requests(), 'POST', '/activate')).toHaveLength(0);
  await typed.fill(playbook.title);
  await confirm.confirm.click();
  // The account has no brokerage linked any more: the service refuses, and the dialog says so.
  await expect(confirm.dialog.getByRole('alert')).toBeVisible();
  expect(writesTo(sandbox.requests(), 'POST', '/activate')).toHaveLength(1);
  expect((await playbookById(sandbox.apiUrl, sandbox.demoKey, playbook.id)).status).toBe(playbook.status);
});

test('billing needs the plan name typed and opens the checkout after Confirm', async ({
  context,
  extension,
  sandbox,
}) => {
  await extension.configure();
  sandbox.clearRequests();
  const from = await extension.open('options.html');
  const confirm = await requestWrite(context, from, {
    operationId: 'createCheckoutSession',
    body: { plan: 'team' },
  });
  await expect(confirm.dialog).toContainText('billed only after you complete it');
  await expect(confirm.confirm).toBeDisabled();
  await confirm.dialog.getByLabel('Type “team” to confirm').fill('team');
  const checkout = context.waitForEvent('page', {
    predicate: (p) => !p.url().startsWith('chrome-extension:'),
  });
  await confirm.confirm.click();
  await expect(confirm.page.getByRole('status')).toContainText('Sent');
  const posts = writesTo(sandbox.requests(), 'POST', '/billing/checkout-sessions');
  expect(posts).toHaveLength(1);
  expect(JSON.parse(posts[0].body)).toEqual({ plan: 'team' });
  expect((await checkout).url()).toMatch(/^https?:/);
});
