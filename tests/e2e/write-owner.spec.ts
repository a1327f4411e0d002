import type { BrowserContext, Page } from '@playwright/test';
import type { Sandbox } from '../../sandbox/server';
import { confirmPause, openPause } from './helpers/flows';
import { expect, test, type Probe } from './helpers/proof';
import { ConfirmPage } from './pages/surfaces';

/**
 * The write's one owner end to end: the sandbox changes its OpenAPI document while a write is under way.
 * Nothing reaches a route before a window has shown it, one draft has one window, and a read is
 * never sent as a POST.
 */

interface StoredPlaybook {
  id: string;
  title: string;
}

/** A playbook of the demo user running live automation, so that Pause is offered. */
function activePlaybook(sandbox: Sandbox, index: number): StoredPlaybook {
  const user = sandbox.db.userForKey(sandbox.demoKey);
  if (!user) throw new Error('no demo user');
  const playbook = sandbox.db.listPlaybooks({ ownerId: user.id }, null, 20).rows[index];
  return sandbox.db.updatePlaybook(playbook.id, { status: 'active' });
}

/** Every request that is not a GET or OPTIONS to a playbook's activate or pause route. */
function liveExecutionCalls(sandbox: Sandbox): string[] {
  return sandbox
    .requests()
    .filter((r) => !['GET', 'OPTIONS'].includes(r.method) && /\/(pause|activate)$/.test(r.path))
    .map((r) => `${r.method} ${r.path}`);
}

const confirmWindows = (context: BrowserContext) =>
  context.pages().filter((page) => page.url().includes('/confirm.html'));

async function pauseFromPanel(
  context: BrowserContext,
  extension: { open(page: string): Promise<Page> },
  target: StoredPlaybook,
): Promise<ConfirmPage> {
  const panel = await extension.open(`sidepanel.html?playbook=${encodeURIComponent(target.id)}`);
  await expect(panel.getByRole('heading', { name: target.title })).toBeVisible();
  const confirm = await openPause(context, panel);
  await expect(confirm.dialog).toContainText(new RegExp(`POST \\S*/${target.id}/pause`));
  return confirm;
}

async function draftIdOf(probe: Probe): Promise<string> {
  const outbox = await probe.value<Array<{ id: string; operationId: string }>>('listOutbox');
  const draft = outbox.find((entry) => entry.operationId === 'pausePlaybook');
  if (!draft) throw new Error('no pause draft');
  return draft.id;
}

test.describe('nothing is sent that no window showed', () => {
  test('after an "operation changed" refusal, Retry sends nothing; the window shows the new route first', async ({
    context,
    extension,
    sandbox,
    probe,
  }) => {
    await extension.configure();
    const target = activePlaybook(sandbox, 0);
    const confirm = await pauseFromPanel(context, extension, target);
    sandbox.setFaults({ openapiTamper: ['pause-activate-swapped'] });
    sandbox.clearRequests();
    await confirmPause(confirm);
    await expect(confirm.dialog).toContainText(/changed how this action is sent/);
    // The window shows the new route: pause now sits at activate's path.
    await expect(confirm.dialog).toContainText(new RegExp(`POST \\S*/${target.id}/activate`));
    expect(liveExecutionCalls(sandbox)).toEqual([]);
    const id = await draftIdOf(probe);
    // Retry from any page: as it was (the window's Retry resent its last request, typed name
    // included, as a confirmWrite without a window's token), and as it is (retryWrite).
    expect(await probe.send('confirmWrite', { id, typed: target.title })).toMatchObject({ ok: false });
    expect(liveExecutionCalls(sandbox)).toEqual([]);
    expect(await probe.value('retryWrite', { id })).toEqual({ outcome: 'review' });
    expect(liveExecutionCalls(sandbox)).toEqual([]);
    expect(confirmWindows(context)).toHaveLength(1);
    expect(sandbox.db.getPlaybook(target.id)?.status).toBe('active');
    // Confirming what the window now shows sends exactly that (the sandbox then refuses an
    // activation without a linked brokerage, which is the service's answer, not ours).
    await confirmPause(confirm);
    await expect
      .poll(() => liveExecutionCalls(sandbox))
      .toEqual([`POST /api/v1/playbooks/${target.id}/activate`]);
  });

  test('Review twice from the popup gives one window, which shows the new method and path', async ({
    context,
    extension,
    sandbox,
  }) => {
    await extension.configure();
    const target = activePlaybook(sandbox, 1);
    const confirm = await pauseFromPanel(context, extension, target);
    sandbox.setFaults({ openapiTamper: ['pause-activate-swapped'] });
    sandbox.clearRequests();
    const popup = await extension.open('popup.html');
    // The popup names the draft by the playbook it acts on.
    const review = popup.getByRole('button', { name: `Review ${target.title}` });
    await review.click();
    await review.click();
    await expect(review).toBeEnabled();
    expect(confirmWindows(context)).toHaveLength(1);
    // The first window's Confirm is refused: it showed pause's old route. It then shows the new one.
    await confirmPause(confirm);
    await expect(confirm.dialog).toContainText(new RegExp(`POST \\S*/${target.id}/activate`));
    expect(liveExecutionCalls(sandbox)).toEqual([]);
    expect(confirmWindows(context)).toHaveLength(1);
  });

  test('a key changed while the window is open: its Confirm sends nothing', async ({
    context,
    extension,
    sandbox,
    probe,
  }) => {
    await extension.configure();
    const target = activePlaybook(sandbox, 2);
    const confirm = await pauseFromPanel(context, extension, target);
    const user = sandbox.db.userForKey(sandbox.demoKey);
    if (!user) throw new Error('no demo user');
    const secondKey = `pbk_second_${Math.random().toString(36).slice(2, 12)}`;
    sandbox.db.addApiKey(user.id, secondKey, 'second key');
    await probe.value('saveApiKey', { key: secondKey });
    sandbox.clearRequests();
    await confirmPause(confirm);
    await expect(confirm.dialog).toContainText(/account or API key changed/);
    expect(liveExecutionCalls(sandbox)).toEqual([]);
    const id = await draftIdOf(probe);
    expect(await probe.send('confirmWrite', { id, typed: target.title })).toMatchObject({ ok: false });
    expect(liveExecutionCalls(sandbox)).toEqual([]);
  });

  test('a read replaced by a POST on the activate route is not sent as a POST', async ({
    extension,
    sandbox,
  }) => {
    // Before discovery: reads use the document the extension discovered.
    sandbox.setFaults({ openapiTamper: ['read-replaced-by-post'], legacySunsetPast: false });
    await extension.configure();
    const target = activePlaybook(sandbox, 3);
    sandbox.clearRequests();
    const panel = await extension.open(`sidepanel.html?playbook=${encodeURIComponent(target.id)}`);
    const heading = panel.getByRole('heading', { name: target.title });
    await expect(heading.or(panel.getByRole('alert')).first()).toBeVisible();
    expect(sandbox.requests().filter((r) => r.method === 'POST')).toEqual([]);
    expect(sandbox.db.getPlaybook(target.id)?.status).toBe('active');
    // The read went to the GET it was, with a warning about the replacement it did not follow.
    await expect(heading).toBeVisible();
  });
});
