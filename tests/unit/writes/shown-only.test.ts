// First: the harness registers the worker's mocks before anything imports what they replace.
import {
  seam,
  answer,
  API_URL,
  serviceDocument,
  EXTENSION_PAGE,
  pageDraft,
  registry,
  tokens,
  WINDOW_TAB,
  send,
  value,
  queueAction,
  failWith,
} from './workerHarness';
import { describe, expect, it, vi } from 'vitest';
import { storeApiKey } from '@/lib/store/apiKey';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { type PendingWrite, type WriteDraft } from '@/lib/messaging';
import { readWrite } from '@/lib/writes/outbox';

/** Nothing is sent that no window showed, and pages learn of draft changes by push. */
describe('nothing is sent that no window showed', () => {
  it('a token goes only to the draft’s window; once that window is gone, a tab showing the draft becomes it', async () => {
    const id = (
      await value<{ draftId: string }>('requestWrite', { operationId: 'createPlaybook', body: pageDraft })
    ).draftId;
    const windowId = (await readWrite<WriteDraft>(id))!.windowId!;
    const otherTab = { ...EXTENSION_PAGE, tab: { id: WINDOW_TAB + windowId + 1, windowId: windowId + 1 } };
    const tokenFor = async (sender: unknown) => {
      const answer = await send('getPendingWrite', { id }, sender);
      return answer.ok ? (answer.value as PendingWrite).token : undefined;
    };
    // While the draft's window is open, neither a tab-less page nor a tab of another window gets a token.
    expect(await tokenFor(EXTENSION_PAGE)).toBeUndefined();
    expect(await tokenFor(otherTab)).toBeUndefined();
    await fakeBrowser.windows.remove(windowId);
    expect(await tokenFor(EXTENSION_PAGE)).toBeUndefined();
    const token = await tokenFor(otherTab);
    expect(token).toBeTruthy();
    expect((await readWrite<WriteDraft>(id))?.windowId).toBe(windowId + 1);
    // The token is that tab's: another page carrying it sends nothing, the tab itself sends.
    expect((await send('confirmWrite', { id, token }, EXTENSION_PAGE)).ok).toBe(false);
    expect(seam.sent).toHaveLength(0);
    expect((await send('confirmWrite', { id, token }, otherTab)).ok).toBe(true);
    expect(seam.sent).toHaveLength(1);
  });

  const NEW_ROUTE = `${API_URL}/playbooks/pb_1/halt`;

  function movePauseToHalt() {
    const doc = serviceDocument();
    const paths = doc.paths as Record<string, unknown>;
    paths['/playbooks/{id}/halt'] = paths['/playbooks/{id}/pause'];
    delete paths['/playbooks/{id}/pause'];
    seam.document = doc;
  }

  /** What the popup's Retry sent before this change: a bare confirmWrite, from no window. */
  async function bareConfirm(id: string) {
    return registry.dispatch({ type: 'confirmWrite', payload: { id } }, EXTENSION_PAGE);
  }

  function windowsOpened() {
    const opened: unknown[] = [];
    fakeBrowser.windows.onCreated.addListener((window) => void opened.push(window));
    return opened;
  }

  const sentTo = (url: string) => seam.sent.filter((write) => write.url === url);

  it('Retry after an "operation changed" refusal sends nothing; the draft’s window shows the new route first', async () => {
    const id = await queueAction('pausePlaybook', { playbookId: 'pb_1' });
    movePauseToHalt();
    expect(await send('confirmWrite', { id, typed: seam.playbookTitle })).toMatchObject({
      ok: false,
      error: { code: 'operation-changed' },
    });
    // The popup's Retry, as it was and as it is: neither sends to the route no window showed.
    expect(await bareConfirm(id)).toMatchObject({ ok: false });
    const opened = windowsOpened();
    expect(await value('retryWrite', { id })).toEqual({ outcome: 'review' });
    expect(sentTo(NEW_ROUTE)).toHaveLength(0);
    expect(seam.sent).toHaveLength(0);
    // Its one window, opened when it was queued, is focused rather than a second one opened …
    expect(opened).toHaveLength(0);
    // … and shows POST …/halt before anything goes there.
    const pending = await value<PendingWrite>('getPendingWrite', { id });
    expect(pending.resolved).toMatchObject({ method: 'POST', path: '/api/v1/playbooks/pb_1/halt' });
    await value('confirmWrite', { id, typed: seam.playbookTitle });
    expect(seam.sent.map((write) => `${write.method} ${write.url}`)).toEqual([`POST ${NEW_ROUTE}`]);
  });

  it('Retry after an "account changed" refusal sends nothing under the new key', async () => {
    const id = await queueAction('pausePlaybook', { playbookId: 'pb_1' });
    failWith(429, {}, { 'retry-after': '90' });
    await send('confirmWrite', { id, typed: seam.playbookTitle });
    expect(seam.sent).toHaveLength(1);
    await storeApiKey('pbk_other_key_9876543210');
    await fakeBrowser.alarms.onAlarm.trigger({ name: `write-retry:${id}`, scheduledTime: Date.now() });
    await vi.waitFor(async () =>
      expect((await readWrite(id))?.error).toMatchObject({ code: 'account-changed' }),
    );
    expect(await bareConfirm(id)).toMatchObject({ ok: false });
    expect(await value('retryWrite', { id })).toEqual({ outcome: 'review' });
    expect(seam.sent).toHaveLength(1);
  });

  it('a key changed while the window is open: its Confirm sends nothing, the window must show the account again', async () => {
    const id = await queueAction('pausePlaybook', { playbookId: 'pb_1' });
    await storeApiKey('pbk_other_key_9876543210');
    expect(await send('confirmWrite', { id, typed: seam.playbookTitle })).toMatchObject({
      ok: false,
      error: { code: 'account-changed' },
    });
    expect(seam.sent).toHaveLength(0);
    await value<PendingWrite>('getPendingWrite', { id });
    await value('confirmWrite', { id, typed: seam.playbookTitle });
    expect(seam.sent).toHaveLength(1);
  });

  it('Review twice gives one window, and a stale window’s Confirm sends nothing', async () => {
    const opened = windowsOpened();
    const id = (
      await value<{ draftId: string }>('requestWrite', { operationId: 'pausePlaybook', playbookId: 'pb_1' })
    ).draftId;
    expect(opened).toHaveLength(1);
    const first = await value<PendingWrite>('getPendingWrite', { id });
    expect(first.resolved?.path).toBe('/api/v1/playbooks/pb_1/pause');
    await Promise.all([value('reviewWrite', { id }), value('reviewWrite', { id })]);
    await value('reviewWrite', { id });
    expect(opened).toHaveLength(1);
    // A second showing (the window reloaded, or a second window of an older version) gets its own token.
    movePauseToHalt();
    const second = await value<PendingWrite>('getPendingWrite', { id });
    expect(second.resolved?.path).toBe('/api/v1/playbooks/pb_1/halt');
    expect(second.token).not.toBe(first.token);
    // The first showing's Confirm, with its own token or none, sends nothing at all.
    expect(await bareConfirm(id)).toMatchObject({ ok: false });
    expect(await send('confirmWrite', { id, token: first.token, typed: seam.playbookTitle })).toMatchObject({
      ok: false,
      error: { code: 'not-shown' },
    });
    expect(seam.sent).toHaveLength(0);
    // The current showing's Confirm sends what it showed.
    await send('confirmWrite', { id, token: second.token, typed: seam.playbookTitle });
    expect(seam.sent.map((write) => write.url)).toEqual([NEW_ROUTE]);
  });

  it('a token is spent by one Confirm', async () => {
    const id = await queueAction('createPlaybook', { body: pageDraft });
    const token = tokens.get(id);
    failWith(400, { detail: 'Bad title.' });
    await send('confirmWrite', { id, token });
    expect(await send('confirmWrite', { id, token })).toMatchObject({
      ok: false,
      error: { code: 'not-shown' },
    });
    expect(seam.sent).toHaveLength(1);
  });

  it('a read deprecated in favour of a POST on the activate route is never sent as a POST', async () => {
    const doc = serviceDocument();
    const paths = doc.paths as Record<string, Record<string, Record<string, unknown>>>;
    Object.assign(paths['/playbooks/{id}'].get, { deprecated: true, 'x-replaced-by': 'batchGetPlaybooks' });
    // The hostile document names its "batch read" on the activate route (and drops activate itself).
    const batch = paths['/playbooks:batchGet'].post;
    delete paths['/playbooks:batchGet'];
    paths['/playbooks/{id}/activate'] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      post: { ...batch, requestBody: undefined },
    } as unknown as Record<string, Record<string, unknown>>;
    seam.document = doc;
    const { registerReadHandlers } = await import('@/lib/background/reads');
    registerReadHandlers(registry);
    // The side panel's read, and the confirm window's heading, both read the playbook.
    await send('getPlaybook', { id: 'pb_1' });
    const id = (
      await value<{ draftId: string }>('requestWrite', { operationId: 'pausePlaybook', playbookId: 'pb_1' })
    ).draftId;
    await value<PendingWrite>('getPendingWrite', { id });
    expect(seam.sent.filter((write) => write.method === 'POST')).toEqual([]);
  });
});

describe('pages learn of draft changes by push', () => {
  it('every transition of a draft is pushed over the events port, without the window’s token', async () => {
    const id = await queueAction('pausePlaybook', { playbookId: 'pb_1' });
    failWith(503);
    await send('confirmWrite', { id, typed: seam.playbookTitle });
    await value('retryWrite', { id });
    const mine = seam.pushed.filter((message) => message.type === 'outbox' && message.change?.id === id);
    // queued, shown, confirmed, claimed, sent, failed; then claimed, sent, settled.
    expect(mine.map((message) => message.change?.status)).toEqual([
      'pending',
      'pending',
      'sending',
      'sending',
      'sending',
      'failed',
      'sending',
      'sending',
      'sent',
    ]);
    for (const message of mine) expect(message.change?.draft?.shown?.token ?? '').toBe('');
    await value('discardDraft', { id });
    expect(seam.pushed.at(-1)).toEqual({ type: 'outbox', change: { id, removed: true } });
  });
});

describe('a write being sent keeps its entry', () => {
  it('discarding it is refused until the service has answered, and the answer still settles it', async () => {
    const id = await queueAction('pausePlaybook', { playbookId: 'pb_1' });
    let release: () => void = () => undefined;
    const held = new Promise<Response>((resolve) => {
      release = () => resolve(answer({ id: 'pb_1' }));
    });
    // The fake service awaits what an answer gives, so this request stays on the wire until released.
    seam.answers.push(() => held as unknown as Response);
    const confirming = send('confirmWrite', { id, typed: seam.playbookTitle });
    await vi.waitFor(() => expect(seam.sent).toHaveLength(1), { timeout: 20_000, interval: 5 });
    const discard = await send('discardDraft', { id });
    expect(discard.ok ? undefined : discard.error.code).toBe('write-in-progress');
    expect((await readWrite(id))?.state).toBe('sent');
    release();
    expect((await confirming).ok).toBe(true);
    expect((await readWrite(id))?.state).toBe('settled');
    // Once settled, the entry may go.
    expect((await send('discardDraft', { id })).ok).toBe(true);
    expect(await readWrite(id)).toBeUndefined();
  });
});

describe('the send checks the state it was handed', () => {
  it.each([
    ['drafted', {}],
    ['shown', {}],
    ['claimed', {}],
    ['sent', {}],
    ['settled', {}],
    ['refused', {}],
  ] as const)('an entry read as %s is not claimed nor sent', async (state, draft) => {
    const { sendConfirmed } = await import('@/lib/writes/send');
    const { IllegalTransitionError } = await import('@/lib/writes/lifecycle');
    const entry = { id: 'x', origin: 'extension-page', operationId: 'pausePlaybook', state, draft } as const;
    await expect(
      sendConfirmed({ ...entry, createdAt: '', updatedAt: '' }, () => true),
    ).rejects.toBeInstanceOf(IllegalTransitionError);
    expect(seam.sent).toEqual([]);
  });
});
