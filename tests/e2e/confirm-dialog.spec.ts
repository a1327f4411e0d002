/**
 * Issue 33, "Confirm windows behave like dialogs", in the browser: the window names the playbook
 * in its heading and focuses it; Escape answers as Cancel does (the draft is discarded unsent); a
 * window closed without an answer leaves its draft first in the popup, under "Drafts waiting",
 * named by its playbook, with Review and Discard; an activation without a linked brokerage says
 * so before anything is typed and offers the link instead.
 */
import type { Page } from '@playwright/test';
import type { Sandbox } from '../../sandbox/server';
import { ConfirmPage } from './pages/surfaces';
import { requestWrite } from './helpers/flows';
import { expect, test } from './helpers/proof';

interface ApiPlaybook {
  id: string;
  title: string;
  status: string;
}

async function firstPlaybook(sandbox: Sandbox): Promise<ApiPlaybook> {
  const response = await fetch(`${sandbox.apiUrl}/playbooks?limit=1`, {
    headers: { authorization: `Bearer ${sandbox.demoKey}` },
  });
  return ((await response.json()) as { data: ApiPlaybook[] }).data[0];
}

const isConfirm = (p: Page) => p.url().includes('/confirm.html');

const BACKTEST = { start: '2021-01-04', end: '2024-12-31', benchmark: 'SPY' };
const posts = (sandbox: Sandbox) => sandbox.requests().filter((r) => r.method === 'POST');

test('the heading names the playbook and has focus; Escape discards the draft as Cancel does', async ({
  context,
  extension,
  sandbox,
  probe,
}) => {
  await extension.configure();
  const playbook = await firstPlaybook(sandbox);
  sandbox.clearRequests();
  const { draftId, confirm } = await requestWrite(context, probe, {
    operationId: 'runBacktest',
    playbookId: playbook.id,
    body: BACKTEST,
  });
  const heading = confirm.dialog.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText(
    `Run a backtest of “${playbook.title}”, Jan 4, 2021 – Dec 31, 2024, against SPY`,
  );
  await expect(heading).toBeFocused();
  // The id and the operation's name are one click away, not in what the user reads first.
  await expect(confirm.dialog.getByText('Details', { exact: true })).toBeVisible();
  await expect(confirm.dialog.getByText('runBacktest')).toBeHidden();
  const closed = confirm.page.waitForEvent('close');
  // The window may close between the key's down and up: the press itself may then report it gone.
  await confirm.page.keyboard.press('Escape').catch(() => undefined);
  await closed;
  const outbox = await probe.value<{ id: string }[]>('listOutbox');
  expect(outbox.map((entry) => entry.id)).not.toContain(draftId);
  expect(posts(sandbox)).toEqual([]);
});

test('a closed window leaves its draft first in the popup, named by its playbook; Review reopens it, Discard drops it', async ({
  context,
  extension,
  sandbox,
  probe,
}) => {
  await extension.configure();
  const playbook = await firstPlaybook(sandbox);
  const { confirm } = await requestWrite(context, probe, {
    operationId: 'runBacktest',
    playbookId: playbook.id,
    body: BACKTEST,
  });
  // The user walks away: the window is closed without an answer.
  await confirm.page.close();
  sandbox.clearRequests();

  const popup = await extension.open('popup.html');
  await popup.setViewportSize({ width: 380, height: 600 });
  const drafts = popup.getByRole('list', { name: 'Drafts' });
  await expect(popup.getByRole('heading', { name: 'Drafts waiting (1)' })).toBeVisible();
  await expect(drafts.getByRole('listitem')).toHaveCount(1);
  await expect(drafts.locator('strong')).toHaveText(playbook.title);
  await expect(drafts).not.toContainText(playbook.id);
  // First in the popup: above the user's playbooks.
  const playbooks = popup.getByRole('list', { name: 'Playbooks' });
  await expect(playbooks).toBeVisible();
  const above = await drafts.evaluate(
    (list, other) => Boolean(other && list.compareDocumentPosition(other) & Node.DOCUMENT_POSITION_FOLLOWING),
    await playbooks.elementHandle(),
  );
  expect(above).toBe(true);

  const reopened = context.waitForEvent('page', { predicate: isConfirm });
  await drafts.getByRole('button', { name: `Review ${playbook.title}` }).click();
  const again = new ConfirmPage(await reopened);
  await expect(again.dialog.getByRole('heading', { level: 1 })).toContainText(playbook.title);
  await again.page.close();

  await drafts.getByRole('button', { name: `Discard ${playbook.title}` }).click();
  await expect(popup.getByRole('list', { name: 'Drafts' })).toHaveCount(0);
  expect(posts(sandbox)).toEqual([]);
});

test('an activation without a linked brokerage says so before anything is typed and offers the link', async ({
  context,
  extension,
  sandbox,
  probe,
}) => {
  await extension.configure();
  const playbook = await firstPlaybook(sandbox);
  sandbox.clearRequests();
  const { draftId, confirm } = await requestWrite(context, probe, {
    operationId: 'activatePlaybook',
    playbookId: playbook.id,
  });
  await expect(confirm.dialog.getByRole('note')).toContainText('No brokerage account is linked');
  await expect(confirm.dialog.getByRole('textbox')).toHaveCount(0);
  await expect(confirm.dialog.getByRole('button', { name: 'Confirm', exact: true })).toHaveCount(0);

  const link = context.waitForEvent('page', { predicate: isConfirm });
  const closed = confirm.page.waitForEvent('close');
  await confirm.dialog.getByRole('button', { name: 'Link a brokerage account' }).click();
  const linkWindow = new ConfirmPage(await link);
  await expect(linkWindow.dialog.getByRole('heading', { level: 1 })).toContainText(
    'Link your brokerage account at',
  );
  await closed;
  // Nothing was sent; the activation waits in the outbox for after the link.
  expect(posts(sandbox)).toEqual([]);
  const outbox = await probe.value<{ id: string; operationId: string }[]>('listOutbox');
  expect(outbox.find((entry) => entry.id === draftId)?.operationId).toBe('activatePlaybook');
});
