import { beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '@/lib/i18n';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import {
  createHandlerRegistry,
  type HandlerRegistry,
  type PendingWrite,
  type WriteDraft,
} from '@/lib/messaging';
import {
  addToOutbox,
  getOutboxEntry,
  listOutbox,
  removeFromOutbox,
  type OutboxEntry,
} from '@/lib/store/outbox';
import { storeApiKey } from '@/lib/store/apiKey';
import { bookIdDialectDocument, writesDocument } from '../api/support';

interface SentWrite {
  method: string;
  url: string;
  idempotencyKey: string | null;
  body: Record<string, unknown> | undefined;
}

/**
 * The service seam: a real API client over the document in `seam.document` (swapped by tests
 * to play a service that changes its document) and a fake fetch that records every write.
 */
interface Seam {
  sent: SentWrite[];
  answers: Array<() => Response>;
  document: unknown;
  playbookTitle: string;
  pageAnswer: Record<string, unknown>;
  createExtra: Record<string, unknown>;
  freshBuilds: number;
  /** What the worker pushed to open side panels over their events port. */
  pushed: Array<{ type: string; change?: { id: string; status?: string; draft?: WriteDraft } }>;
}

const seam = vi.hoisted((): Seam => ({
  sent: [] as SentWrite[],
  /** Answers for the next writes, in order; a write without one succeeds. */
  answers: [] as Array<() => Response>,
  document: undefined,
  playbookTitle: 'Dividend growers',
  /** What createCheckoutSession and createBrokerageLink answer. */
  pageAnswer: {},
  /** Extra fields in createPlaybook's answer (a hostile service may add a checkout_url there). */
  createExtra: {},
  freshBuilds: 0,
  pushed: [],
}));

vi.mock('@/lib/events', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/events')>()),
  broadcast: (message: Seam['pushed'][number]) => void seam.pushed.push(message),
}));

const API_URL = 'http://127.0.0.1:8787/api/v1';

function answer(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers },
  });
}

vi.mock('@/lib/api/service', async () => {
  const { createApiClient, RateLimitGate } = await import('@/lib/api');
  const { loadApiKey } = await import('@/lib/store/apiKey');
  const { DEFAULT_SETTINGS } = await import('@/lib/store/settings');
  const playbookOf = (id: string) => ({
    id,
    title: seam.playbookTitle,
    thesis: 't',
    visibility: 'private',
    status: 'active',
    tickers: [],
    owner: { id: 'u1', name: 'Ada' },
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    etag: '"v1"',
  });
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    if (request.method === 'GET' && path.endsWith('/account'))
      return answer({
        id: 'u1',
        name: 'Demo Investor',
        email: 'demo@example.com',
        plan: 'pro',
        permissions: [],
        brokerage_linked: true,
      });
    if (request.method === 'GET') return answer(playbookOf(decodeURIComponent(path.split('/')[4] ?? '')));
    const text = await request.text();
    seam.sent.push({
      method: request.method,
      url: request.url,
      idempotencyKey: request.headers.get('idempotency-key'),
      body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
    });
    const next = seam.answers.shift();
    if (next) return next();
    if (path.endsWith('/checkout-sessions') || path.endsWith('/links')) return answer(seam.pageAnswer);
    if (path.endsWith('/backtests'))
      return answer({ id: 'bt_1', playbook_id: 'pb_1', status: 'queued' }, 202);
    if (request.method === 'POST' && path.endsWith('/playbooks'))
      return answer({ ...playbookOf('pb_new'), ...seam.createExtra }, 201);
    return answer(playbookOf('pb_1'));
  }) as typeof globalThis.fetch;
  const build = () =>
    createApiClient({
      apiUrl: DEFAULT_SETTINGS.apiUrl,
      siteUrl: DEFAULT_SETTINGS.serviceUrl,
      openApi: seam.document,
      openApiUrl: `${DEFAULT_SETTINGS.serviceUrl}/openapi.json`,
      fetch,
      getApiKey: loadApiKey,
      random: () => 0.5,
      sleep: () => Promise.resolve(),
      timeoutSignal: () => new AbortController().signal,
      rateLimitGate: new RateLimitGate({
        origin: new URL(DEFAULT_SETTINGS.apiUrl).origin,
        now: Date.now,
        sleep: () => Promise.resolve(),
        maxInWorkerWaitMs: 20_000,
      }),
      backoff: { maxAttempts: 1 },
    });
  return {
    serviceClient: (_settings?: unknown, options?: { fresh?: boolean }) => {
      if (options?.fresh) seam.freshBuilds++;
      return Promise.resolve(build());
    },
  };
});

const { registerWriteHandlers, recoverInterruptedWrites } = await import('@/lib/background/writes');
const { routeAlarm, routeNotificationClick } = await import('@/lib/background');

/** The sandbox's document, its server pointing at the default API URL. */
function serviceDocument(base: ReturnType<typeof writesDocument> = writesDocument()) {
  return { ...base, servers: [{ url: API_URL }] };
}

const EXTENSION_PAGE = { id: fakeBrowser.runtime.id, origin: `chrome-extension://${fakeBrowser.runtime.id}` };
const CONTENT_SCRIPT = {
  id: fakeBrowser.runtime.id,
  tab: { id: 7 },
  frameId: 0,
  url: 'https://finance.example/q',
};

const pageDraft = {
  title: 'AAPL — services keep growing',
  thesis: 'Services revenue hit a record.',
  tickers: ['AAPL'],
  visibility: 'private',
  source: {
    url: 'https://finance.example/q/AAPL',
    title: 'Apple',
    excerpt: 'Services revenue hit a record.',
  },
};

let registry: HandlerRegistry;

/** The token each draft's window was last given: a window's Confirm carries it back. */
const tokens = new Map<string, string>();

/** Tab ids of confirm windows: the window's id plus this (the fake browser puts no tab in a new window). */
const WINDOW_TAB = 10_000;

/** The draft's confirm window as a sender: the extension page in the tab of the window the draft was opened in. */
async function draftWindowSender(id: string): Promise<unknown> {
  const windowId = (await getOutboxEntry<WriteDraft>(id))?.windowId;
  if (windowId === undefined) return EXTENSION_PAGE;
  return { ...EXTENSION_PAGE, tab: { id: WINDOW_TAB + windowId, windowId } };
}

beforeEach(() => {
  const tabsGet = fakeBrowser.tabs.get.bind(fakeBrowser.tabs);
  vi.spyOn(fakeBrowser.tabs, 'get').mockImplementation((tabId: number) =>
    tabId >= WINDOW_TAB
      ? Promise.resolve({ id: tabId, windowId: tabId - WINDOW_TAB } as Awaited<ReturnType<typeof tabsGet>>)
      : tabsGet(tabId),
  );
  return () => vi.mocked(fakeBrowser.tabs.get).mockRestore();
});

/**
 * A message as the pages send it; `getPendingWrite` and `confirmWrite` come from the draft's
 * window, `confirmWrite` with the token it was shown with.
 */
async function send(type: string, payload: unknown, explicitSender?: unknown) {
  const fromWindow = type === 'getPendingWrite' || type === 'confirmWrite';
  const sender =
    explicitSender ??
    (fromWindow && payload && typeof payload === 'object' && 'id' in payload
      ? await draftWindowSender((payload as { id: string }).id)
      : EXTENSION_PAGE);
  let sent = payload;
  if (type === 'confirmWrite' && payload && typeof payload === 'object' && !('token' in payload)) {
    const token = tokens.get((payload as { id: string }).id);
    if (token) sent = { ...payload, token };
  }
  const answer = await registry.dispatch({ type, payload: sent }, sender);
  if (type === 'getPendingWrite' && answer.ok) {
    const token = (answer.value as PendingWrite & { token?: string }).token;
    if (token) tokens.set((payload as { id: string }).id, token);
  }
  return answer;
}

async function value<T>(type: string, payload: unknown): Promise<T> {
  const answer = await send(type, payload);
  if (!answer.ok) throw new Error(`${type}: ${answer.error.code} ${answer.error.message}`);
  return answer.value as T;
}

/** Queues a write as the side panel does, and opens it as the confirm window does. */
async function queueAction(operationId: string, extra: Record<string, unknown>): Promise<string> {
  const id = (await value<{ draftId: string }>('requestWrite', { operationId, ...extra })).draftId;
  await value<PendingWrite>('getPendingWrite', { id });
  return id;
}

/** The draft's window loads it again (after a failure, the user edits and confirms anew). */
async function showAgain(id: string): Promise<PendingWrite> {
  return value<PendingWrite>('getPendingWrite', { id });
}

function failWith(status: number, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  seam.answers.push(() => answer({ title: 'Refused', status, ...body }, status, headers));
}

function failOffline() {
  seam.answers.push(() => {
    throw new TypeError('connection reset');
  });
}

beforeEach(async () => {
  tokens.clear();
  seam.pushed.length = 0;
  seam.sent.length = 0;
  seam.answers.length = 0;
  seam.document = serviceDocument();
  seam.playbookTitle = 'Dividend growers';
  seam.pageAnswer = {
    checkout_url: 'https://checkout.example/s/1',
    link_url: 'https://broker.example/link/1',
  };
  seam.createExtra = {};
  await storeApiKey('pbk_test_key_0123456789');
  for (const entry of await listOutbox()) await removeFromOutbox(entry.id);
  registry = createHandlerRegistry({
    extensionId: fakeBrowser.runtime.id,
    extensionOrigin: `chrome-extension://${fakeBrowser.runtime.id}`,
  });
  registerWriteHandlers(registry);
  // The switchboard's routes, as startBackground adds them (switchboard.test.ts checks that wiring).
  fakeBrowser.alarms.onAlarm.addListener(routeAlarm);
  fakeBrowser.notifications.onClicked.addListener(routeNotificationClick);
});

describe('queueing', () => {
  it('keeps a content-script draft in the outbox and opens the confirm window, sending nothing', async () => {
    const opened = vi.fn();
    fakeBrowser.windows.onCreated.addListener(opened);
    const answer = await send('submitPageDraft', { draft: pageDraft }, CONTENT_SCRIPT);
    expect(answer.ok).toBe(true);
    const { draftId } = (answer as { value: { draftId: string } }).value;
    const entry = await getOutboxEntry<WriteDraft>(draftId);
    expect(entry).toMatchObject({
      status: 'pending',
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
    expect(await listOutbox()).toHaveLength(0);
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
    expect((await getOutboxEntry(draftId))?.status).toBe('pending');
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
    const entry = await getOutboxEntry<WriteDraft>(id);
    expect(entry).toMatchObject({ status: 'failed', error: { code: 'server' } });
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
    expect((await getOutboxEntry(id))?.error).toMatchObject({
      code: 'forbidden',
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
    const retryAt = (await getOutboxEntry(id))?.error?.retryAt ?? 0;
    expect(retryAt).toBeGreaterThan(Date.now() + 60_000);
    const alarm = await fakeBrowser.alarms.get(`write-retry:${id}`);
    expect(alarm?.scheduledTime).toBe(retryAt);

    await fakeBrowser.alarms.onAlarm.trigger({ name: `write-retry:${id}`, scheduledTime: retryAt });
    await vi.waitFor(async () => expect((await getOutboxEntry(id))?.status).toBe('sent'));
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
    expect((await getOutboxEntry(id))?.error?.message).toMatch(/nothing was written twice/);
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
    const retryAt = (await getOutboxEntry(id))?.error?.retryAt ?? 0;
    await storeApiKey('pbk_k2b_0123456789');
    await fakeBrowser.alarms.onAlarm.trigger({ name: `write-retry:${id}`, scheduledTime: retryAt });
    await vi.waitFor(async () =>
      expect((await getOutboxEntry(id))?.error).toMatchObject({ code: 'account-changed' }),
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
    expect((await getOutboxEntry(id))?.status).toBe('pending');
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
    ['pausePlaybook', { playbookId: 'pb_1' }, 'Dividend growers'],
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
    expect(seam.sent[0].url).toMatch(
      operationId === 'pausePlaybook' ? /\/pause$/ : /\/(activate|checkout-sessions)$/,
    );
  });

  it.each([
    [
      'runBacktest',
      { playbookId: 'pb_1', body: { start: '2020-01-01', end: '2024-12-31' } },
      'POST /api/v1/playbooks/pb_1/backtests',
    ],
    ['createBrokerageLink', { body: { provider: 'alpaca' } }, 'POST /api/v1/brokerage/links'],
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
    expect(seam.sent[0].body).toEqual(extra.body);
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
    const { updateOutboxEntry } = await import('@/lib/store/outbox');
    await updateOutboxEntry(id, { status: 'sending' });
    expect(await send('confirmWrite', { id })).toMatchObject({
      ok: false,
      error: { code: 'write-in-progress' },
    });
    await recoverInterruptedWrites();
    expect((await getOutboxEntry(id))?.status).toBe('failed');
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
    const entry = await getOutboxEntry<WriteDraft>(draftId ?? '');
    expect(entry).toMatchObject({ origin: 'context-menu', operationId: 'createPlaybook', status: 'pending' });
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
    expect(await listOutbox()).toHaveLength(0);
  });
});

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
    expect((await getOutboxEntry(id))?.status).toBe('pending');
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
    const entry = await getOutboxEntry<WriteDraft>(id);
    expect(entry).toMatchObject({ status: 'failed', error: { code: 'operation-changed' } });
    expect(entry?.draft.confirmed).toBeUndefined();
    // The window reloads and shows the new resolution; confirming that one sends it.
    const pending = await value<PendingWrite>('getPendingWrite', { id });
    expect(pending.resolved?.path).toBe('/api/v1/playbooks/pb_1/halt');
    await value('confirmWrite', { id, typed: seam.playbookTitle });
    expect(seam.sent.map((write) => write.url)).toEqual([`${API_URL}/playbooks/pb_1/halt`]);
  });

  it('a pause remapped after Confirm, while waiting for an alarm resend, is not sent', async () => {
    const id = await queueAction('pausePlaybook', { playbookId: 'pb_1' });
    failWith(429, {}, { 'retry-after': '90' });
    await send('confirmWrite', { id, typed: seam.playbookTitle });
    expect(seam.sent).toHaveLength(1);
    const waiting = await getOutboxEntry<WriteDraft>(id);
    expect(waiting?.draft.confirmed).toMatchObject({
      method: 'POST',
      url: `${API_URL}/playbooks/pb_1/pause`,
    });
    remapPause('/playbooks/{id}/activate-now');
    await fakeBrowser.alarms.onAlarm.trigger({ name: `write-retry:${id}`, scheduledTime: Date.now() });
    await vi.waitFor(async () =>
      expect((await getOutboxEntry(id))?.error).toMatchObject({ code: 'operation-changed' }),
    );
    expect((await getOutboxEntry(id))?.error?.message).toMatch(
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
      expect((await getOutboxEntry(id))?.error).toMatchObject({ code: 'operation-changed' }),
    );
    expect((await getOutboxEntry(id))?.error?.message).toContain(
      `reached its sunset on ${formatDate(Date.UTC(2025, 0, 1))}`,
    );
    expect(seam.sent).toHaveLength(1);
  });

  it('a write confirmed by an earlier version (no bound intent) is never resent blind', async () => {
    const entry = await addToOutbox<WriteDraft>({
      origin: 'extension-page',
      operationId: 'pausePlaybook',
      draft: { path: { id: 'pb_1' }, idempotencyKey: crypto.randomUUID() },
    });
    const { updateOutboxEntry } = await import('@/lib/store/outbox');
    await updateOutboxEntry(entry.id, {
      status: 'failed',
      error: { message: 'Wait.', code: 'deferred', retryAt: Date.now() },
    });
    await fakeBrowser.alarms.onAlarm.trigger({ name: `write-retry:${entry.id}`, scheduledTime: Date.now() });
    await vi.waitFor(async () =>
      expect((await getOutboxEntry(entry.id))?.error).toMatchObject({ code: 'not-shown' }),
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
      expect((await getOutboxEntry(id))?.error).toMatchObject({ code: 'account-changed' }),
    );
    expect(seam.sent).toHaveLength(1);
  });
});

describe('a service that names the playbook parameter bookId', () => {
  it("pause, backtest and edit go to the dialect's paths, and the typed title is read there too", async () => {
    seam.document = serviceDocument(bookIdDialectDocument());
    const pause = await queueAction('pausePlaybook', { playbookId: 'pb_1' });
    const pending = await value<PendingWrite>('getPendingWrite', { id: pause });
    expect(pending.typeToConfirm).toBe(seam.playbookTitle);
    expect(pending.resolved?.path).toBe('/api/v1/books/pb_1/live:stop');
    await value('confirmWrite', { id: pause, typed: seam.playbookTitle });
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
    expect((await listOutbox()).filter((entry) => entry.origin === 'content-script')).toHaveLength(5);
  });

  it('two drafts at the same moment cannot both take the last slot', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => send('submitPageDraft', { draft: pageDraft }, tab(43))),
    );
    expect(answers.filter((answer) => answer.ok)).toHaveLength(3);
  });
});

/**
 * Issue 21: the holes an adversarial review found, with the real handlers. Each of these failed
 * before lib/writes owned the lifecycle: the popup's Retry (then a bare confirmWrite) and a stale
 * window's Confirm sent a route no window showed, and a deprecated read was sent as a POST.
 */
describe('nothing is sent that no window showed', () => {
  it('a token goes only to the draft’s window; once that window is gone, a tab showing the draft becomes it', async () => {
    const id = (
      await value<{ draftId: string }>('requestWrite', { operationId: 'createPlaybook', body: pageDraft })
    ).draftId;
    const windowId = (await getOutboxEntry<WriteDraft>(id))!.windowId!;
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
    expect((await getOutboxEntry<WriteDraft>(id))?.windowId).toBe(windowId + 1);
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
      expect((await getOutboxEntry(id))?.error).toMatchObject({ code: 'account-changed' }),
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
    // The side panel's read, and the confirm window's typed title, both read the playbook.
    await send('getPlaybook', { id: 'pb_1' });
    const id = (
      await value<{ draftId: string }>('requestWrite', { operationId: 'pausePlaybook', playbookId: 'pb_1' })
    ).draftId;
    const pending = await value<PendingWrite>('getPendingWrite', { id });
    expect(pending.typeToConfirm).toBe(seam.playbookTitle);
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
    expect(mine.map((message) => message.change?.status)).toEqual([
      'pending',
      'pending',
      'sending',
      'failed',
      'sending',
      'sent',
    ]);
    for (const message of mine) expect(message.change?.draft?.shown?.token ?? '').toBe('');
    await value('discardDraft', { id });
    expect(seam.pushed.at(-1)).toEqual({ type: 'outbox', change: { id, removed: true } });
  });
});
