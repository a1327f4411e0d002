// First: the harness registers the worker's mocks before anything imports what they replace.
import {
  seam,
  API_URL,
  serviceDocument,
  CONTENT_SCRIPT,
  pageDraft,
  registry,
  send,
  value,
  queueAction,
  failWith,
} from './workerHarness';
import { describe, expect, it, vi } from 'vitest';
import { formatDate } from '@/lib/i18n';
import { storeApiKey } from '@/lib/store/apiKey';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { type PendingWrite, type WriteDraft } from '@/lib/messaging';
import type { OutboxEntry } from '@/lib/contract/outbox';
import { database } from '@/lib/store/db';
import { addDraft, readWrite, listWrites } from '@/lib/writes/outbox';
import { bookIdDialectDocument } from '../api/support';

/** The write that is sent is the write that was confirmed, in either dialect, and what a page may open after it. */
describe('the write that is sent is the write that was confirmed', () => {
  const pauseOf = (doc: ReturnType<typeof serviceDocument>) =>
    (doc.paths as Record<string, Record<string, Record<string, unknown>>>)['/playbooks/{id}/pause'];

  function remapPause(to: string) {
    const doc = serviceDocument();
    const paths = doc.paths as Record<string, unknown>;
    paths[to] = paths['/playbooks/{id}/pause'];
    delete paths['/playbooks/{id}/pause'];
    seam.document = doc;
  }

  it('the confirm window shows the method and path, resolved from a fresh document', async () => {
    const id = (
      await value<{ draftId: string }>('requestWrite', { operationId: 'pausePlaybook', playbookId: 'pb_1' })
    ).draftId;
    const before = seam.freshBuilds;
    const pending = await value<PendingWrite>('getPendingWrite', { id });
    expect(seam.freshBuilds).toBe(before + 1);
    expect(pending.resolved).toMatchObject({
      method: 'POST',
      path: '/api/v1/playbooks/pb_1/pause',
      url: `${API_URL}/playbooks/pb_1/pause`,
      deprecated: false,
    });
  });

  it('a pause deprecated in favour of activate is sent as pause, and the window warned', async () => {
    const doc = serviceDocument();
    Object.assign(pauseOf(doc).post, {
      deprecated: true,
      'x-sunset': '2099-01-01',
      'x-replaced-by': 'activatePlaybook',
    });
    seam.document = doc;
    const id = (
      await value<{ draftId: string }>('requestWrite', { operationId: 'pausePlaybook', playbookId: 'pb_1' })
    ).draftId;
    const pending = await value<PendingWrite>('getPendingWrite', { id });
    expect(pending.resolved?.path).toBe('/api/v1/playbooks/pb_1/pause');
    expect(pending.resolved?.warnings.join(' ')).toMatch(/pausePlaybook as deprecated.*sent as itself/);
    await value('confirmWrite', { id, typed: seam.playbookTitle });
    expect(seam.sent.map((write) => `${write.method} ${write.url}`)).toEqual([
      `POST ${API_URL}/playbooks/pb_1/pause`,
    ]);
    expect(seam.sent[0].idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a pause past its sunset is refused in the window and at Confirm', async () => {
    const doc = serviceDocument();
    Object.assign(pauseOf(doc).post, { deprecated: true, 'x-sunset': '2025-01-01' });
    seam.document = doc;
    const id = (
      await value<{ draftId: string }>('requestWrite', { operationId: 'pausePlaybook', playbookId: 'pb_1' })
    ).draftId;
    const pending = await value<PendingWrite>('getPendingWrite', { id });
    expect(pending.refusal).toContain(`reached its sunset on ${formatDate(Date.UTC(2025, 0, 1))}`);
    expect(pending.refusal).toMatch(/Nothing was sent/);
    expect(await send('confirmWrite', { id, typed: seam.playbookTitle })).toMatchObject({ ok: false });
    expect((await readWrite(id))?.state).toBe('drafted');
    expect(seam.sent).toHaveLength(0);
  });

  it('a pause remapped between the window opening and Confirm is not sent, and must be confirmed again', async () => {
    const id = await queueAction('pausePlaybook', { playbookId: 'pb_1' });
    remapPause('/playbooks/{id}/halt');
    const answer = await send('confirmWrite', { id, typed: seam.playbookTitle });
    expect(answer).toMatchObject({
      ok: false,
      error: {
        code: 'operation-changed',
        message:
          'The service changed how this action is sent (was POST /api/v1/playbooks/pb_1/pause, now POST /api/v1/playbooks/pb_1/halt). Nothing was sent. Review and confirm again.',
      },
    });
    expect(seam.sent).toHaveLength(0);
    const entry = await readWrite<WriteDraft>(id);
    expect(entry).toMatchObject({ state: 'refused', error: { code: 'operation-changed' } });
    expect(entry?.draft.confirmed).toBeUndefined();
    // The window reloads and shows the new resolution; confirming that one sends it.
    const pending = await value<PendingWrite>('getPendingWrite', { id });
    expect(pending.resolved?.path).toBe('/api/v1/playbooks/pb_1/halt');
    await value('confirmWrite', { id, typed: seam.playbookTitle });
    expect(seam.sent.map((write) => write.url)).toEqual([`${API_URL}/playbooks/pb_1/halt`]);
  });

  it('a route changed after the Confirm check, found just before the request leaves, refuses the write', async () => {
    const id = await queueAction('pausePlaybook', { playbookId: 'pb_1' });
    // The document changes once the write is claimed: after Confirm checked it, before it is sent.
    const remapOnClaim = seam.onPush;
    seam.onPush = (change) => {
      if (change.id === id && change.status === 'sending') remapPause('/playbooks/{id}/halt');
    };
    const answer = await send('confirmWrite', { id, typed: seam.playbookTitle });
    seam.onPush = remapOnClaim;
    expect(answer).toMatchObject({ ok: false, error: { code: 'operation-changed' } });
    expect(seam.sent).toHaveLength(0);
    expect(await readWrite<WriteDraft>(id)).toMatchObject({
      state: 'refused',
      error: { code: 'operation-changed' },
    });
  });

  it('a pause remapped after Confirm, while waiting for an alarm resend, is not sent', async () => {
    const id = await queueAction('pausePlaybook', { playbookId: 'pb_1' });
    failWith(429, {}, { 'retry-after': '90' });
    await send('confirmWrite', { id, typed: seam.playbookTitle });
    expect(seam.sent).toHaveLength(1);
    const waiting = await readWrite<WriteDraft>(id);
    expect(waiting?.draft.confirmed).toMatchObject({
      method: 'POST',
      url: `${API_URL}/playbooks/pb_1/pause`,
    });
    remapPause('/playbooks/{id}/activate-now');
    await fakeBrowser.alarms.onAlarm.trigger({ name: `write-retry:${id}`, scheduledTime: Date.now() });
    await vi.waitFor(async () =>
      expect((await readWrite(id))?.error).toMatchObject({ code: 'operation-changed' }),
    );
    expect((await readWrite(id))?.error?.message).toMatch(
      /was POST \/api\/v1\/playbooks\/pb_1\/pause, now POST \/api\/v1\/playbooks\/pb_1\/activate-now.*Nothing was sent/,
    );
    expect(seam.sent).toHaveLength(1);
  });

  it('a pause past its sunset while waiting for an alarm resend is not sent, and says it reached its sunset', async () => {
    const id = await queueAction('pausePlaybook', { playbookId: 'pb_1' });
    failWith(429, {}, { 'retry-after': '90' });
    await send('confirmWrite', { id, typed: seam.playbookTitle });
    expect(seam.sent).toHaveLength(1);
    const doc = serviceDocument();
    Object.assign(pauseOf(doc).post, { deprecated: true, 'x-sunset': '2025-01-01' });
    seam.document = doc;
    await fakeBrowser.alarms.onAlarm.trigger({ name: `write-retry:${id}`, scheduledTime: Date.now() });
    await vi.waitFor(async () =>
      expect((await readWrite(id))?.error).toMatchObject({ code: 'operation-changed' }),
    );
    expect((await readWrite(id))?.error?.message).toContain(
      `reached its sunset on ${formatDate(Date.UTC(2025, 0, 1))}`,
    );
    expect(seam.sent).toHaveLength(1);
  });

  it('a write confirmed by an earlier version (no bound intent) is never resent blind', async () => {
    const entry = await addDraft<WriteDraft>({
      origin: 'extension-page',
      operationId: 'pausePlaybook',
      draft: { path: { id: 'pb_1' }, idempotencyKey: crypto.randomUUID() },
    });
    await (
      await database()
    ).put(
      'outbox',
      {
        ...entry,
        state: 'failed',
        error: { message: 'Wait.', code: 'api.deferred', retryAt: Date.now() },
      } as never,
      entry.id,
    );
    await fakeBrowser.alarms.onAlarm.trigger({ name: `write-retry:${entry.id}`, scheduledTime: Date.now() });
    await vi.waitFor(async () =>
      expect((await readWrite(entry.id))?.error).toMatchObject({ code: 'not-shown' }),
    );
    expect(seam.sent).toHaveLength(0);
    // Its old `path.id` still names the playbook once the user reviews it.
    const pending = await value<PendingWrite>('getPendingWrite', { id: entry.id });
    expect(pending.resolved?.path).toBe('/api/v1/playbooks/pb_1/pause');
  });

  it('confirming a draft the window never showed sends nothing', async () => {
    const id = (
      await value<{ draftId: string }>('requestWrite', { operationId: 'createPlaybook', body: pageDraft })
    ).draftId;
    expect(await send('confirmWrite', { id })).toMatchObject({
      ok: false,
      error: { code: 'not-shown' },
    });
    expect(seam.sent).toHaveLength(0);
  });

  it('binds the key: a key changed between confirm and send is not used', async () => {
    const id = await queueAction('createPlaybook', { body: pageDraft });
    failWith(429, {}, { 'retry-after': '90' });
    await send('confirmWrite', { id });
    await storeApiKey('pbk_other_key_9876543210');
    await fakeBrowser.alarms.onAlarm.trigger({ name: `write-retry:${id}`, scheduledTime: Date.now() });
    await vi.waitFor(async () =>
      expect((await readWrite(id))?.error).toMatchObject({ code: 'account-changed' }),
    );
    expect(seam.sent).toHaveLength(1);
  });
});

describe('a service that names the playbook parameter bookId', () => {
  it("activate, pause, backtest and edit go to the dialect's paths, and the typed title is read there too", async () => {
    seam.document = serviceDocument(bookIdDialectDocument());
    const activate = await queueAction('activatePlaybook', { playbookId: 'pb_1' });
    const shown = await value<PendingWrite>('getPendingWrite', { id: activate });
    expect(shown.typeToConfirm).toBe(seam.playbookTitle);
    expect(shown.resolved?.path).toMatch(/^\/api\/v1\/books\/pb_1\//);
    await value('discardDraft', { id: activate });
    const pause = await queueAction('pausePlaybook', { playbookId: 'pb_1' });
    const pending = await value<PendingWrite>('getPendingWrite', { id: pause });
    expect(pending.resolved?.path).toBe('/api/v1/books/pb_1/live:stop');
    await value('confirmWrite', { id: pause });
    const backtest = await queueAction('runBacktest', {
      playbookId: 'pb_1',
      body: { start: '2020-01-01', end: '2024-12-31' },
    });
    await value('confirmWrite', { id: backtest });
    const edit = await queueAction('updatePlaybook', {
      playbookId: 'pb_1',
      body: { title: 'New' },
      ifMatch: '"v1"',
    });
    await value('confirmWrite', { id: edit });
    expect(seam.sent.map((write) => `${write.method} ${new URL(write.url).pathname}`)).toEqual([
      'POST /api/v1/books/pb_1/live:stop',
      'POST /api/v1/books/pb_1/backtests',
      'PATCH /api/v1/books/pb_1',
    ]);
  });

  it("the side panel detail reads the playbook by the dialect's path", async () => {
    seam.document = serviceDocument(bookIdDialectDocument());
    const { registerReadHandlers } = await import('@/lib/background/reads');
    registerReadHandlers(registry);
    const playbook = await value<{ id: string; title: string }>('getPlaybook', { id: 'pb_7' });
    expect(playbook).toMatchObject({ id: 'pb_7', title: seam.playbookTitle });
  });
});

describe('pages opened after a write', () => {
  async function checkout(): Promise<OutboxEntry<WriteDraft>> {
    const opened = vi.fn();
    fakeBrowser.tabs.onCreated.addListener(opened);
    const id = await queueAction('createCheckoutSession', { body: { plan: 'pro' } });
    const sent = await value<OutboxEntry<WriteDraft>>('confirmWrite', { id, typed: 'pro' });
    return Object.assign(sent, { opened });
  }

  it('opens the checkout page from its own answer over https', async () => {
    const sent = (await checkout()) as OutboxEntry<WriteDraft> & { opened: ReturnType<typeof vi.fn> };
    expect(sent.draft.result).toMatchObject({ url: 'https://checkout.example/s/1' });
    expect(sent.opened).toHaveBeenCalledOnce();
  });

  it.each([
    ['plain http', 'http://checkout.example/s/1', /not https \(http\)/],
    ['a script', 'javascript:alert(document.cookie)', /not https \(javascript\)/],
    ['garbage', 'not a url', /not a URL/],
  ])('does not open %s, and says why', async (_name, url, reason) => {
    seam.pageAnswer = { checkout_url: url };
    const sent = (await checkout()) as OutboxEntry<WriteDraft> & { opened: ReturnType<typeof vi.fn> };
    expect(sent.opened).not.toHaveBeenCalled();
    expect(sent.draft.result?.url).toBeUndefined();
    expect(sent.draft.result?.urlRefused).toMatch(reason);
    const notifications = Object.values(await fakeBrowser.notifications.getAll());
    expect(JSON.stringify(notifications)).toMatch(/was not opened/);
  });

  it('allows http on loopback (the sandbox)', async () => {
    seam.pageAnswer = { checkout_url: 'http://127.0.0.1:8787/checkout/1' };
    const sent = (await checkout()) as OutboxEntry<WriteDraft> & { opened: ReturnType<typeof vi.fn> };
    expect(sent.opened).toHaveBeenCalledOnce();
  });

  it("never opens a checkout_url found in another operation's answer", async () => {
    seam.createExtra = { checkout_url: 'https://evil.example/pay', link_url: 'https://evil.example/link' };
    const opened = vi.fn();
    fakeBrowser.tabs.onCreated.addListener(opened);
    const id = await queueAction('createPlaybook', { body: pageDraft });
    const sent = await value<OutboxEntry<WriteDraft>>('confirmWrite', { id });
    expect(sent.status).toBe('sent');
    expect(sent.draft.result?.url).toBeUndefined();
    expect(opened).not.toHaveBeenCalled();
  });
});

describe('drafts from a page are bounded per tab', () => {
  const tab = (id: number) => ({ ...CONTENT_SCRIPT, tab: { id } });

  it('allows three drafts a minute per tab, refuses the fourth, and counts other tabs apart', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.UTC(2026, 0, 1, 12, 0, 0));
      for (let n = 0; n < 3; n++)
        expect((await send('submitPageDraft', { draft: pageDraft }, tab(41))).ok).toBe(true);
      expect(await send('submitPageDraft', { draft: pageDraft }, tab(41))).toMatchObject({
        ok: false,
        error: { code: 'too-many-drafts', message: expect.stringMatching(/Wait a minute/) },
      });
      expect((await send('submitPageDraft', { draft: pageDraft }, tab(42))).ok).toBe(true);
      // A restarted worker (fresh module) still remembers the count: it lives in storage.session.
      vi.resetModules();
      const { takeDraftSlot } = await import('@/lib/background/draftRate');
      expect(await takeDraftSlot(41)).toBe(false);
      vi.setSystemTime(Date.UTC(2026, 0, 1, 12, 1, 1));
      expect((await send('submitPageDraft', { draft: pageDraft }, tab(41))).ok).toBe(true);
    } finally {
      vi.useRealTimers();
    }
    expect((await listWrites()).filter((entry) => entry.origin === 'content-script')).toHaveLength(5);
  });

  it('two drafts at the same moment cannot both take the last slot', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => send('submitPageDraft', { draft: pageDraft }, tab(43))),
    );
    expect(answers.filter((answer) => answer.ok)).toHaveLength(3);
  });
});

/**
 * The holes an adversarial review found, with the real handlers. Each of these failed
 * before lib/writes owned the lifecycle: the popup's Retry (then a bare confirmWrite) and a stale
 * window's Confirm sent a route no window showed, and a deprecated read was sent as a POST.
 */
