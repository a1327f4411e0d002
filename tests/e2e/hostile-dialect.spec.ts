/**
 * A service in another dialect (dialect b: other paths, a `bookId` parameter, pages of 1–25): the
 * popup, the side panel's detail, edit, backtest and pause, and a confirmed create all bind its
 * paths and stay within its bounds.
 */
import type { RecordedRequest, Sandbox } from '../../sandbox/server';
import {
  NEW_PLAYBOOK,
  confirmNextWrite,
  openPause,
  queueCreate,
  confirmPause,
  uniqueTitle,
  writesTo,
} from './helpers/flows';
import { activePlaybook, demoPlaybooks, liveExecutionCalls, openDetail } from './helpers/hostile';
import { expect, test } from './helpers/proof';
import { PopupPage, SidePanelPage } from './pages/surfaces';

test.describe('dialect b: other paths, bookId, pages of 1–25', () => {
  test.use({ dialect: 'b' });

  const apiCalls = (sandbox: Sandbox): RecordedRequest[] =>
    sandbox.requests().filter((r) => r.path.startsWith('/api/') && r.method !== 'OPTIONS');

  test('popup: the list and Load more, at the dialect’s paths and within its bounds', async ({
    extension,
    sandbox,
  }) => {
    await extension.configure();
    sandbox.clearRequests();
    const popup = await extension.open('popup.html');
    const rows = popup.getByRole('list', { name: 'Playbooks' }).getByRole('listitem');
    await expect(rows.first()).toBeVisible();
    // Counted once the popup's own refresh has answered: a saved copy draws its first rows in one
    // frame and the rest in the next, and the refresh's request is one of the two counted below.
    await new PopupPage(popup).refreshed();
    const first = await rows.count();
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(25);
    await popup.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows.count()).toBeGreaterThan(first);
    const lists = apiCalls(sandbox).filter((r) => r.method === 'GET' && r.path === '/api/v2/books');
    expect(lists.length).toBeGreaterThanOrEqual(2);
    for (const list of lists) {
      const limit = new URLSearchParams(list.query).get('limit');
      if (limit !== null) expect(Number(limit)).toBeLessThanOrEqual(25);
    }
    expect(apiCalls(sandbox).filter((r) => r.path.startsWith('/api/v1/'))).toEqual([]);
  });

  test('side panel: detail, edit, backtest and pause bind the bookId parameter', async ({
    context,
    extension,
    sandbox,
  }) => {
    test.setTimeout(90_000);
    await extension.configure();
    const target = activePlaybook(sandbox);
    const panel = await openDetail(extension, target);
    await expect(panel.getByText(target.thesis.slice(0, 40))).toBeVisible();

    const newTitle = uniqueTitle('Dialect b edit');
    const edit = panel.getByRole('form', { name: 'Edit playbook' });
    await edit.getByLabel('Title').fill(newTitle);
    let confirm = await confirmNextWrite(context, () =>
      edit.getByRole('button', { name: 'Save changes' }).click(),
    );
    await expect(confirm.page.getByRole('status')).toContainText('Sent');
    const patches = sandbox.requests().filter((r) => r.method === 'PATCH');
    expect(patches.map((r) => r.path)).toEqual([`/api/v2/books/${target.id}`]);
    expect(patches[0].headers['if-match']).toBe(target.etag);
    expect(sandbox.db.getPlaybook(target.id)?.title).toBe(newTitle);

    await expect(panel.getByRole('heading', { name: newTitle })).toBeVisible();
    confirm = await confirmNextWrite(context, () =>
      panel.getByRole('form', { name: 'Backtest' }).getByRole('button', { name: 'Run backtest' }).click(),
    );
    await expect(confirm.page.getByRole('status')).toContainText('Sent');
    expect(writesTo(sandbox, '/run-backtest').map((r) => r.path)).toEqual([
      `/api/v2/books/${target.id}/run-backtest`,
    ]);
    const ownerId = sandbox.db.userForKey(sandbox.demoKey)!.id;
    await new SidePanelPage(panel).expectNewestRunCompleted(
      () => sandbox.db.backtests.list(target.id, ownerId, null, 1).rows[0],
      15_000,
    );

    const pause = await openPause(context, panel);
    await confirmPause(pause);
    await expect(pause.page.getByRole('status')).toContainText('Sent');
    expect(liveExecutionCalls(sandbox)).toEqual([`POST /api/v2/books/${target.id}/live/stop`]);
    expect(sandbox.db.getPlaybook(target.id)?.status).toBe('paused');
  });

  test('a create write through the confirm window lands once at the dialect’s path', async ({
    context,
    sandbox,
    extension,
    probe,
  }) => {
    await extension.configure();
    sandbox.clearRequests();
    const title = uniqueTitle('Dialect b create');
    const { confirm } = await queueCreate(context, probe, { ...NEW_PLAYBOOK, title });
    await expect(confirm.confirm).toBeEnabled();
    await confirm.confirm.click();
    await expect(confirm.page.getByRole('status')).toContainText('Sent');
    expect(writesTo(sandbox, '/v2/books').map((r) => r.path)).toEqual(['/api/v2/books']);
    expect(demoPlaybooks(sandbox).filter((p) => p.title === title)).toHaveLength(1);
  });
});
