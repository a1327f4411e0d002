/**
 * Adversarial review of lib/writes: each test drives the real worker handlers (or the
 * real API client) against a fake service and asserts the contract. Each one failing is a hole.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import {
  createHandlerRegistry,
  type HandlerRegistry,
  type PendingWrite,
  type WriteDraft,
} from '@/lib/messaging';
import { database } from '@/lib/store/db';
import { readWrite } from '@/lib/writes/outbox';
import { storeApiKey } from '@/lib/store/apiKey';
import { clientFor, json, writesDocument } from '../api/support';

interface SentWrite {
  method: string;
  url: string;
  idempotencyKey: string | null;
  body: Record<string, unknown> | undefined;
}

interface Seam {
  sent: SentWrite[];
  answers: Array<() => Response>;
  document: unknown;
  accountCalls: number;
  holds: Map<number, { reached: () => void; released: Promise<void> }>;
}

const seam = vi.hoisted((): Seam => ({
  sent: [] as SentWrite[],
  answers: [] as Array<() => Response>,
  document: undefined,
  accountCalls: 0,
  /** GET /account calls (1-based) that wait for a release: a slow service, to open a race window. */
  holds: new Map<number, { reached: () => void; released: Promise<void> }>(),
}));

const API_URL = 'http://127.0.0.1:8787/api/v1';

function answer(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' },
  });
}

vi.mock('@/lib/api/service', async () => {
  const { createApiClient, RateLimitGate } = await import('@/lib/api');
  const { loadApiKey } = await import('@/lib/store/apiKey');
  const { DEFAULT_SETTINGS } = await import('@/lib/store/settings');
  const playbookOf = (id: string) => ({
    id,
    title: 'Dividend growers',
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
    if (request.method === 'GET' && path.endsWith('/account')) {
      const hold = seam.holds.get(++seam.accountCalls);
      if (hold) {
        hold.reached();
        await hold.released;
      }
      return answer({
        id: 'u1',
        name: 'Demo Investor',
        email: 'demo@example.com',
        plan: 'pro',
        permissions: [],
        brokerage_linked: true,
      });
    }
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
    if (request.method === 'POST' && path.endsWith('/playbooks')) return answer(playbookOf('pb_new'), 201);
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
    serviceClient: () => Promise.resolve(build()),
  };
});

const { registerWriteHandlers, resendDeferredWrite } = await import('@/lib/background/writes');

/** The side panel and popup: extension pages without a tab. */
const EXTENSION_PAGE = { id: fakeBrowser.runtime.id, origin: `chrome-extension://${fakeBrowser.runtime.id}` };

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

/** Tab ids of confirm windows: the window's id plus this (the fake browser puts no tab in a new window). */
const WINDOW_TAB = 10_000;

/** The draft's confirm window: the extension page in the tab of the window the draft was opened in. */
async function draftWindow(id: string): Promise<unknown> {
  const windowId = (await readWrite<WriteDraft>(id))?.windowId;
  return windowId === undefined
    ? EXTENSION_PAGE
    : { ...EXTENSION_PAGE, tab: { id: WINDOW_TAB + windowId, windowId } };
}

/** A message as the pages send it: the draft's window loads and confirms it, unless `sender` says otherwise. */
async function dispatch(type: string, payload: unknown, sender?: unknown) {
  const fromWindow = (type === 'getPendingWrite' || type === 'confirmWrite') && sender === undefined;
  const from = fromWindow ? await draftWindow((payload as { id: string }).id) : (sender ?? EXTENSION_PAGE);
  return registry.dispatch({ type, payload }, from);
}

async function value<T>(type: string, payload: unknown): Promise<T> {
  const result = await dispatch(type, payload);
  if (!result.ok) throw new Error(`${type}: ${result.error.code} ${result.error.message}`);
  return result.value as T;
}

/** Holds the n-th GET /account until released; resolves `reached` when the service is waiting. */
function holdAccountCall(n: number) {
  let reached!: () => void;
  let release!: () => void;
  const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  seam.holds.set(n, { reached, released });
  return { reached: reachedPromise, release };
}

beforeEach(async () => {
  seam.sent.length = 0;
  seam.answers.length = 0;
  seam.accountCalls = 0;
  seam.holds.clear();
  seam.document = { ...writesDocument(), servers: [{ url: API_URL }] };
  const tabsGet = fakeBrowser.tabs.get.bind(fakeBrowser.tabs);
  vi.spyOn(fakeBrowser.tabs, 'get').mockImplementation((tabId: number) =>
    tabId >= WINDOW_TAB
      ? Promise.resolve({ id: tabId, windowId: tabId - WINDOW_TAB } as Awaited<ReturnType<typeof tabsGet>>)
      : tabsGet(tabId),
  );
  await storeApiKey('pbk_test_key_0123456789');
  await (await database()).clear('outbox');
  registry = createHandlerRegistry({
    extensionId: fakeBrowser.runtime.id,
    extensionOrigin: `chrome-extension://${fakeBrowser.runtime.id}`,
  });
  registerWriteHandlers(registry);
});

/** A createPlaybook draft queued and shown once in its window; the window's token. */
async function shownDraft(): Promise<{ id: string; token: string }> {
  const { draftId: id } = await value<{ draftId: string }>('requestWrite', {
    operationId: 'createPlaybook',
    body: pageDraft,
  });
  const pending = await value<PendingWrite>('getPendingWrite', { id });
  expect(pending.token).toBeTruthy();
  return { id, token: pending.token! };
}

describe('one token, one send', () => {
  it('two Confirms carrying the same token send one request, not two under different keys', async () => {
    const { id, token } = await shownDraft(); // GET /account #1 (the window)
    // The slower of the two confirms (a double click) waits on its account read.
    const slow = holdAccountCall(3);
    seam.answers.push(() => answer({ title: 'Boom', status: 502 }, 502));
    const first = dispatch('confirmWrite', { id, token });
    const second = dispatch('confirmWrite', { id, token });
    await slow.reached;
    expect((await first).ok).toBe(false); // the 502: the write may have landed
    slow.release();
    await second;
    // The claim checks and spends the token: a second Confirm of the failed draft must not send
    // again with a fresh Idempotency-Key (a duplicate playbook).
    expect(seam.sent.map((write) => write.idempotencyKey)).toHaveLength(1);
  });

  it('a window loading while its write is being sent does not turn the sent draft back into a pending one', async () => {
    const { id, token } = await shownDraft(); // GET /account #1
    // The window reloads (or a second window opens) and its account read is slow.
    const slow = holdAccountCall(2);
    const reload = dispatch('getPendingWrite', { id });
    await slow.reached;
    expect((await dispatch('confirmWrite', { id, token })).ok).toBe(true);
    expect((await readWrite<WriteDraft>(id))?.state).toBe('settled');
    slow.release();
    const reloaded = await reload;
    // showWrite moves the entry only while it is still as it read it (compare-and-swap): a
    // reload must not make the sent draft 'pending' again, without its key or result.
    const state = (await readWrite<WriteDraft>(id))?.state;
    const token2 = reloaded.ok ? (reloaded.value as PendingWrite).token : undefined;
    if (token2) await dispatch('confirmWrite', { id, token: token2 });
    // The same draft is created a second time, under a new Idempotency-Key.
    expect(seam.sent.map((write) => write.idempotencyKey)).toHaveLength(1);
    expect(state).toBe('settled');
  });

  it('a token is given only to the draft’s own window, not to any extension page that asks', async () => {
    const { draftId: id } = await value<{ draftId: string }>('requestWrite', {
      operationId: 'createPlaybook',
      body: pageDraft,
    });
    const entry = await readWrite<WriteDraft>(id);
    expect(entry?.windowId).toBeDefined();
    // The side panel (no tab, not the confirm window) asks for the pending write and confirms it.
    const pending = await dispatch('getPendingWrite', { id }, EXTENSION_PAGE);
    const token = pending.ok ? (pending.value as PendingWrite).token : undefined;
    await dispatch('confirmWrite', { id, token }, EXTENSION_PAGE);
    // The token is bound to the draft's confirm window (defence in depth): no other page may spend it.
    expect(seam.sent).toHaveLength(0);
  });
});

describe('a deferred resend', () => {
  it('after the document changed (the write is now deprecated with a sunset), opens the window instead of sending', async () => {
    const { draftId: id } = await value<{ draftId: string }>('requestWrite', {
      operationId: 'pausePlaybook',
      playbookId: 'pb_1',
    });
    const pending = await value<PendingWrite>('getPendingWrite', { id });
    seam.answers.push(
      () =>
        new Response(JSON.stringify({ title: 'Slow down', status: 429 }), {
          status: 429,
          headers: { 'content-type': 'application/problem+json', 'retry-after': '120' },
        }),
    );
    await dispatch('confirmWrite', { id, token: pending.token, typed: 'Dividend growers' });
    expect((await readWrite<WriteDraft>(id))?.error?.retryAt).toBeDefined();
    expect(seam.sent).toHaveLength(1);
    // The service publishes a new document: same route, but the write is now deprecated and
    // stops working soon, a warning no window showed when the user confirmed.
    const doc = seam.document as { paths: Record<string, { post: Record<string, unknown> }> };
    Object.assign(doc.paths['/playbooks/{id}/pause'].post, {
      deprecated: true,
      'x-sunset': '2099-01-01',
      'x-replaced-by': 'activatePlaybook',
    });
    await resendDeferredWrite(id);
    // CONTRACT: "a deferred resend whose OpenAPI document or key changed" opens the window.
    expect(seam.sent).toHaveLength(1);
  });
});

describe('a POST read never lands on a write route', () => {
  /** The document moves batchGetPlaybooks / graphql onto a concrete write URL (a literal path). */
  function documentWith(read: 'batchGetPlaybooks' | 'graphql', literal: string) {
    const doc = writesDocument();
    const paths = doc.paths as Record<string, Record<string, unknown>>;
    for (const [path, item] of Object.entries(paths)) {
      if ((item.post as { operationId?: string } | undefined)?.operationId === read) {
        paths[literal] = { post: item.post };
        delete item.post;
        if (Object.keys(item).length === 0) delete paths[path];
      }
    }
    return doc;
  }

  it('batchGet does not POST to a playbook’s activate URL', async () => {
    const { client, requests } = clientFor(() => json({ results: [] }), {
      openApi: documentWith('batchGetPlaybooks', '/playbooks/pb_1/activate'),
    });
    await client.batchGet(['pb_1']).catch(() => undefined);
    // A concrete path on a write's template is that write: routeShape('/playbooks/pb_1/activate')
    // differs from '/playbooks/{}/activate', yet the batch read must not POST there with the key.
    expect(requests.filter((request) => request.url.endsWith('/activate'))).toEqual([]);
  });

  it('listing playbooks (the popup opening) does not POST to a playbook’s activate URL', async () => {
    // listPlaybooks deprecated in favour of graphql, and graphql declared on a concrete activate URL.
    const doc = documentWith('graphql', '/playbooks/pb_1/activate');
    const paths = doc.paths as Record<string, { get?: Record<string, unknown> }>;
    Object.assign(paths['/playbooks'].get!, { deprecated: true, 'x-replaced-by': 'graphql' });
    const { client, requests } = clientFor(
      () => json({ data: { playbooks: { edges: [], pageInfo: { hasNextPage: false, endCursor: null } } } }),
      { openApi: doc },
    );
    await client.listPage('listPlaybooks').catch(() => undefined);
    expect(requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('GraphQL pagination does not POST to a playbook’s pause URL', async () => {
    const { client, requests } = clientFor(
      () => json({ data: { playbooks: { edges: [], pageInfo: { hasNextPage: false, endCursor: null } } } }),
      { openApi: documentWith('graphql', '/playbooks/pb_1/pause') },
    );
    try {
      for await (const _page of client.paginateGraphQL()) break;
    } catch {
      // refused is fine
    }
    expect(requests.filter((request) => request.url.endsWith('/pause'))).toEqual([]);
  });
});
