// First: the harness registers the worker's mocks before anything imports what they replace.
import {
  seam,
  CONTENT_SCRIPT,
  pageDraft,
  send,
  value,
  queueAction,
  showAgain,
  failWith,
  failOffline,
  recoverInterruptedWrites,
} from './workerHarness';
import { describe, expect, it, vi } from 'vitest';
import { storeApiKey } from '@/lib/store/apiKey';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { type WriteDraft } from '@/lib/messaging';
import type { OutboxEntry } from '@/lib/contract/outbox';
import { database } from '@/lib/store/db';
import { readWrite, listWrites } from '@/lib/writes/outbox';

/** Queueing a write, confirming it in its window, and what follows a success. */
describe('queueing', () => {
  it('keeps a content-script draft in the outbox and opens the confirm window, sending nothing', async () => {
    const opened = vi.fn();
    fakeBrowser.windows.onCreated.addListener(opened);
    const answer = await send('submitPageDraft', { draft: pageDraft }, CONTENT_SCRIPT);
    expect(answer.ok).toBe(true);
    const { draftId } = (answer as { value: { draftId: string } }).value;
    const entry = await readWrite<WriteDraft>(draftId);
    expect(entry).toMatchObject({
      state: 'drafted',
      operationId: 'createPlaybook',
      origin: 'content-script',
    });
    expect(entry?.draft.body).toMatchObject({ title: pageDraft.title, visibility: 'private' });
    expect(opened).toHaveBeenCalledOnce();
    expect(seam.sent).toHaveLength(0);
  });

  it.each([
    ['a public draft', { ...pageDraft, visibility: 'public' }],
    ['a script URL', { ...pageDraft, source: { ...pageDraft.source, url: 'javascript:alert(1)' } }],
    ['an extra field', { ...pageDraft, owner: 'someone-else' }],
    ['a huge title', { ...pageDraft, title: 'A'.repeat(10_000) }],
    ['no draft', null],
  ])('refuses %s from a page', async (_name, draft) => {
    const answer = await send('submitPageDraft', { draft }, CONTENT_SCRIPT);
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid-draft' } });
    expect(await listWrites()).toHaveLength(0);
  });

  it('refuses confirmWrite, requestWrite and getPendingWrite from a content script', async () => {
    const answer = await send('submitPageDraft', { draft: pageDraft }, CONTENT_SCRIPT);
    const { draftId } = (answer as { value: { draftId: string } }).value;
    for (const [type, payload] of [
      ['confirmWrite', { id: draftId }],
      ['getPendingWrite', { id: draftId }],
      ['requestWrite', { operationId: 'createPlaybook', body: pageDraft }],
    ] as const) {
      expect(await send(type, payload, CONTENT_SCRIPT)).toMatchObject({
        ok: false,
        error: { code: 'sender-not-allowed' },
      });
    }
    expect(seam.sent).toHaveLength(0);
    expect((await readWrite(draftId))?.state).toBe('drafted');
  });
});

describe('confirming', () => {
  it('sends the confirmed body once with a UUID key and marks the draft sent', async () => {
    const id = await queueAction('createPlaybook', { body: pageDraft });
    const sent = await value<OutboxEntry<WriteDraft>>('confirmWrite', {
      id,
      body: { title: 'Edited title', visibility: 'unlisted' },
    });
    expect(seam.sent).toHaveLength(1);
    expect(seam.sent[0].idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(seam.sent[0].body).toMatchObject({
      title: 'Edited title',
      visibility: 'unlisted',
      tickers: ['AAPL'],
    });
    expect(sent.status).toBe('sent');
    expect(sent.draft.result?.playbookId).toBe('pb_new');
  });

  it('refuses an unknown draft and a draft already sent', async () => {
    expect(await send('confirmWrite', { id: crypto.randomUUID() })).toMatchObject({
      ok: false,
      error: { code: 'draft-not-found' },
    });
    const id = await queueAction('createPlaybook', { body: pageDraft });
    await value('confirmWrite', { id });
    expect(await send('confirmWrite', { id })).toMatchObject({
      ok: false,
      error: { code: 'draft-already-sent' },
    });
    expect(seam.sent).toHaveLength(1);
  });

  it('keeps a failed draft with its error; Retry of the same body reuses the key', async () => {
    const id = await queueAction('createPlaybook', { body: pageDraft });
    failWith(500, { detail: 'The service failed.' });
    const failed = await send('confirmWrite', { id, body: { title: 'Kept title' } });
    expect(failed).toMatchObject({ ok: false });
    const entry = await readWrite<WriteDraft>(id);
    expect(entry).toMatchObject({ state: 'failed', error: { code: 'api.server' } });
    expect(entry?.draft.body).toMatchObject({ title: 'Kept title' });

    // Retry (popup, side panel or window) resends the confirmed bytes: no window, no new token.
    expect(await value('retryWrite', { id })).toMatchObject({ outcome: 'sent' });
    expect(seam.sent).toHaveLength(2);
    expect(seam.sent[1].idempotencyKey).toBe(seam.sent[0].idempotencyKey);
    expect(seam.sent[1].body).toEqual(seam.sent[0].body);
  });

  it("keeps the service's own problem code, so a 403 for a missing brokerage can be told apart", async () => {
    const id = await queueAction('activatePlaybook', { playbookId: 'pb_1' });
    failWith(403, { detail: 'Link a brokerage account first.', code: 'brokerage_not_linked' });
    await send('confirmWrite', { id, typed: seam.playbookTitle });
    expect((await readWrite(id))?.error).toMatchObject({
      code: 'api.forbidden',
      problemCode: 'brokerage_not_linked',
    });
  });

  it('confirms a playbook typed in the side panel, which has no source (optional in the contract)', async () => {
    const id = await queueAction('createPlaybook', {
      body: {
        title: 'Utilities capex',
        thesis: 'Grid spend keeps rising.',
        tickers: ['NEE'],
        visibility: 'private',
      },
    });
    await value('confirmWrite', { id, body: { visibility: 'unlisted' } });
    expect(seam.sent).toHaveLength(1);
    expect(seam.sent[0].body).toEqual({
      title: 'Utilities capex',
      thesis: 'Grid spend keeps rising.',
      tickers: ['NEE'],
      visibility: 'unlisted',
    });
  });

  it('hands a long rate-limit wait to an alarm, which resends the same key and body', async () => {
    const id = await queueAction('createPlaybook', { body: pageDraft });
    failWith(429, {}, { 'retry-after': '90' });
    expect((await send('confirmWrite', { id })).ok).toBe(false);
    const retryAt = (await readWrite(id))?.error?.retryAt ?? 0;
    expect(retryAt).toBeGreaterThan(Date.now() + 60_000);
    const alarm = await fakeBrowser.alarms.get(`write-retry:${id}`);
    expect(alarm?.scheduledTime).toBe(retryAt);

    await fakeBrowser.alarms.onAlarm.trigger({ name: `write-retry:${id}`, scheduledTime: retryAt });
    await vi.waitFor(async () => expect((await readWrite(id))?.state).toBe('settled'));
    expect(seam.sent).toHaveLength(2);
    expect(seam.sent[1].idempotencyKey).toBe(seam.sent[0].idempotencyKey);
    expect(seam.sent[1].body).toEqual(seam.sent[0].body);
  });

  it('an alarm for a draft that is no longer waiting sends nothing', async () => {
    const id = await queueAction('createPlaybook', { body: pageDraft });
    await value('confirmWrite', { id });
    await fakeBrowser.alarms.onAlarm.trigger({ name: `write-retry:${id}`, scheduledTime: Date.now() });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seam.sent).toHaveLength(1);
  });

  it('makes a new key when the user changes the body after the service refused it outright', async () => {
    const id = await queueAction('createPlaybook', { body: pageDraft });
    failWith(400, { detail: 'Bad title.' });
    await send('confirmWrite', { id });
    await showAgain(id);
    await value('confirmWrite', { id, body: { thesis: 'A different thesis.' } });
    expect(seam.sent).toHaveLength(2);
    expect(seam.sent[1].idempotencyKey).not.toBe(seam.sent[0].idempotencyKey);
  });

  it.each([
    ['network', failOffline],
    ['server', () => failWith(503)],
    [
      'malformed-response',
      () =>
        seam.answers.push(
          () => new Response('<html>', { status: 201, headers: { 'content-type': 'application/json' } }),
        ),
    ],
  ] as const)(
    'keeps the key for an edited body after a %s failure, which may have landed',
    async (_kind, fail) => {
      const id = await queueAction('createPlaybook', { body: pageDraft });
      fail();
      await send('confirmWrite', { id });
      await showAgain(id);
      await value('confirmWrite', { id, body: { thesis: 'A different thesis.' } });
      expect(seam.sent).toHaveLength(2);
      // Same key, other body: if the first landed the service answers 422 rather than write twice.
      expect(seam.sent[1].idempotencyKey).toBe(seam.sent[0].idempotencyKey);
      expect(seam.sent[1].body).not.toEqual(seam.sent[0].body);
    },
  );

  it('says plainly that nothing was written twice when the service answers 422', async () => {
    const id = await queueAction('createPlaybook', { body: pageDraft });
    failOffline();
    failWith(422, { code: 'idempotency_key_reused' });
    await send('confirmWrite', { id });
    await showAgain(id);
    await send('confirmWrite', { id, body: { thesis: 'A different thesis.' } });
    expect((await readWrite(id))?.error?.message).toMatch(/nothing was written twice/);
  });

  it('sends a draft once when two confirm windows confirm it at the same time', async () => {
    const id = await queueAction('createPlaybook', { body: pageDraft });
    const answers = await Promise.all([send('confirmWrite', { id }), send('confirmWrite', { id })]);
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
    expect(answers.find((answer) => !answer.ok)).toMatchObject({ error: { code: 'write-in-progress' } });
    expect(seam.sent).toHaveLength(1);
  });

  it('an alarm does not resend into another account than the one the user confirmed for', async () => {
    await storeApiKey('pbk_k1a_0123456789');
    const id = await queueAction('createPlaybook', { body: pageDraft });
    failWith(429, {}, { 'retry-after': '90' });
    await send('confirmWrite', { id });
    const retryAt = (await readWrite(id))?.error?.retryAt ?? 0;
    await storeApiKey('pbk_k2b_0123456789');
    await fakeBrowser.alarms.onAlarm.trigger({ name: `write-retry:${id}`, scheduledTime: retryAt });
    await vi.waitFor(async () =>
      expect((await readWrite(id))?.error).toMatchObject({ code: 'account-changed' }),
    );
    expect(seam.sent).toHaveLength(1);
  });

  it('answers field errors for bad edits and sends nothing', async () => {
    const id = await queueAction('createPlaybook', { body: pageDraft });
    const answer = await send('confirmWrite', { id, body: { title: '', tickers: ['not a ticker!'] } });
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid-draft' } });
    const fields = (answer as { error: { fields: Record<string, string> } }).error.fields;
    expect(Object.keys(fields)).toEqual(expect.arrayContaining(['title', 'tickers.0']));
    expect(seam.sent).toHaveLength(0);
    expect((await readWrite(id))?.state).toBe('shown');
  });

  it.each([
    ['activatePlaybook', { playbookId: 'pb_1' }],
    ['createCheckoutSession', { body: {} }],
  ])('%s with nothing to type (an empty title, no plan) is never confirmed', async (operationId, extra) => {
    seam.playbookTitle = '  ';
    const id = await queueAction(operationId, extra);
    for (const typed of [undefined, '', '  ']) {
      expect(await send('confirmWrite', { id, typed })).toMatchObject({
        ok: false,
        error: { code: 'typed-confirmation' },
      });
    }
    expect(seam.sent).toHaveLength(0);
  });

  it.each([
    ['activatePlaybook', { playbookId: 'pb_1' }, 'Dividend growers'],
    ['createCheckoutSession', { body: { plan: 'pro' } }, 'pro'],
  ])('%s needs the name typed out, and the background re-checks it', async (operationId, extra, name) => {
    const id = await queueAction(operationId, extra);
    const pending = await value<{ typeToConfirm?: string }>('getPendingWrite', { id });
    expect(pending.typeToConfirm).toBe(name);
    for (const typed of [undefined, '', 'wrong', `${name}x`]) {
      expect(await send('confirmWrite', { id, typed })).toMatchObject({
        ok: false,
        error: { code: 'typed-confirmation', fields: { typed: expect.any(String) } },
      });
    }
    expect(seam.sent).toHaveLength(0);
    await value('confirmWrite', { id, typed: ` ${name} ` });
    expect(seam.sent).toHaveLength(1);
    expect(seam.sent[0].url).toMatch(/\/(activate|checkout-sessions)$/);
  });

  it.each([
    [
      'runBacktest',
      { playbookId: 'pb_1', body: { start: '2020-01-01', end: '2024-12-31' } },
      'POST /api/v1/playbooks/pb_1/backtests',
    ],
    ['createBrokerageLink', { body: { provider: 'alpaca' } }, 'POST /api/v1/brokerage/links'],
    // Stopping automation is the safe direction: the window and Confirm, no title to type.
    ['pausePlaybook', { playbookId: 'pb_1' }, 'POST /api/v1/playbooks/pb_1/pause'],
    [
      'updatePlaybook',
      { playbookId: 'pb_1', body: { title: 'New name' }, ifMatch: '"v3"' },
      'PATCH /api/v1/playbooks/pb_1',
    ],
  ])('%s needs no typed name and is sent as queued', async (operationId, extra, request) => {
    const id = await queueAction(operationId, extra);
    const pending = await value<{ typeToConfirm?: string; consequence: string }>('getPendingWrite', { id });
    expect(pending.typeToConfirm).toBeUndefined();
    expect(pending.consequence).toMatch(/\w/);
    await value('confirmWrite', { id });
    expect(`${seam.sent[0].method} ${new URL(seam.sent[0].url).pathname}`).toBe(request);
    expect(seam.sent[0].body).toEqual('body' in extra ? extra.body : undefined);
  });

  it('ignores edits for operations whose body is not editable', async () => {
    const id = await queueAction('createCheckoutSession', { body: { plan: 'pro' } });
    await value('confirmWrite', { id, typed: 'pro', body: { plan: 'enterprise' } });
    expect(seam.sent[0].body).toEqual({ plan: 'pro' });
  });

  it('a write interrupted by a worker stop becomes failed, and its retry reuses the key', async () => {
    const id = await queueAction('createPlaybook', { body: pageDraft });
    failOffline();
    await send('confirmWrite', { id });
    // The worker stopped with the write on the wire: stored as sent, with no answer.
    const stopped = await readWrite(id);
    await (await database()).put('outbox', { ...stopped!, state: 'sent' }, id);
    expect(await send('confirmWrite', { id })).toMatchObject({
      ok: false,
      error: { code: 'write-in-progress' },
    });
    await recoverInterruptedWrites();
    expect((await readWrite(id))?.state).toBe('failed');
    expect(await value('retryWrite', { id })).toMatchObject({ outcome: 'sent' });
    expect(seam.sent[1].idempotencyKey).toBe(seam.sent[0].idempotencyKey);
  });
});

describe('after success', () => {
  it('notifies with the playbook, and a click opens it in the side panel page', async () => {
    const id = await queueAction('createPlaybook', { body: pageDraft });
    await value('confirmWrite', { id });
    const notifications = await fakeBrowser.notifications.getAll();
    expect(Object.keys(notifications)).toEqual(['playbook:pb_new']);
    const opened = vi.fn();
    fakeBrowser.tabs.onCreated.addListener(opened);
    await fakeBrowser.notifications.onClicked.trigger('playbook:pb_new');
    await vi.waitFor(() => expect(opened).toHaveBeenCalled());
    expect(opened.mock.calls[0][0].url).toMatch(/\/sidepanel\.html\?playbook=pb_new$/);
  });
});

describe('the right-click menu', () => {
  const page = { pageUrl: 'https://finance.example/quote/MSFT', pageTitle: 'Microsoft (MSFT) quote' };

  it.each([
    [
      'playbook-from-selection',
      { selectionText: 'Azure growth re-accelerated <script>x</script>' },
      'thesis',
      /Azure growth re-accelerated <script>x<\/script>/,
    ],
    [
      'playbook-from-link',
      { linkUrl: 'https://news.example/nvda-earnings' },
      'source.url',
      /^https:\/\/news\.example\/nvda-earnings$/,
    ],
    ['playbook-from-page', {}, 'source.url', /^https:\/\/finance\.example\/quote\/MSFT$/],
  ])('%s queues a private createPlaybook draft', async (menuItemId, extra, field, expected) => {
    const { handleMenuClick } = await import('@/lib/background/contextMenus');
    const draftId = await handleMenuClick({ menuItemId, ...page, ...extra });
    const entry = await readWrite<WriteDraft>(draftId ?? '');
    expect(entry).toMatchObject({ origin: 'context-menu', operationId: 'createPlaybook', state: 'drafted' });
    const body = entry?.draft.body as Record<string, unknown> & { source: Record<string, unknown> };
    expect(body.visibility).toBe('private');
    const value = field === 'thesis' ? body.thesis : body.source.url;
    expect(value).toMatch(expected);
    expect(seam.sent).toHaveLength(0);
  });

  it('ignores other menu items and refuses pages that cannot be cited', async () => {
    const { handleMenuClick } = await import('@/lib/background/contextMenus');
    expect(await handleMenuClick({ menuItemId: 'open-side-panel', ...page })).toBeUndefined();
    await expect(
      handleMenuClick({
        menuItemId: 'playbook-from-page',
        pageUrl: 'chrome://settings',
        pageTitle: 'Settings',
      }),
    ).rejects.toThrow();
    expect(await listWrites()).toHaveLength(0);
  });
});

describe('the right-click menu reads the clicked page as the offer does', () => {
  const captured = {
    title: 'NVDA — Nvidia guides above estimates',
    thesis: 'Nvidia guides above estimates\n\nData-center revenue doubled.',
    tickers: ['NVDA'],
    visibility: 'private',
    source: {
      url: 'https://finance.example/quote/NVDA',
      title: 'Nvidia guides above estimates',
      excerpt: 'x',
    },
  };
  const click = {
    menuItemId: 'playbook-from-page',
    pageUrl: 'https://finance.example/quote/NVDA',
    pageTitle: 'NVIDIA Corporation (NVDA) Stock Price | Finance Example',
    tabId: 7,
  };

  function pageAnswers(draft: unknown): void {
    (fakeBrowser as unknown as { scripting: unknown }).scripting = {
      executeScript: (injection: { func?: unknown }) =>
        Promise.resolve(injection.func ? [{ result: draft }] : [{}]),
    };
  }

  async function queuedBody(context: Record<string, unknown>) {
    const { handleMenuClick } = await import('@/lib/background/contextMenus');
    const draftId = await handleMenuClick(context as never);
    return (await readWrite<WriteDraft>(draftId ?? ''))?.draft.body as Record<string, unknown>;
  }

  it('titles the draft by the article and takes the page’s tickers', async () => {
    pageAnswers(captured);
    const body = await queuedBody(click);
    expect(body.title).toBe(captured.title);
    expect(body.tickers).toEqual(['NVDA']);
  });

  it('falls back to the click’s info, without the site’s name, when the page cannot be read or moved on', async () => {
    pageAnswers({ ...captured, source: { ...captured.source, url: 'https://finance.example/other' } });
    expect((await queuedBody(click)).title).toBe('NVIDIA Corporation (NVDA) Stock Price');
    pageAnswers(null);
    expect((await queuedBody(click)).title).toBe('NVIDIA Corporation (NVDA) Stock Price');
  });
});
