/**
 * The worker's write handlers as the pages reach them, over a real API client and a fake service
 * (`seam`): shared by the write tests of this folder. Importing it registers the mocks and the
 * hooks that reset the outbox, the key and the service before each test.
 */
import { beforeEach, vi } from 'vitest';
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
import { writesDocument } from '../api/support';

export interface SentWrite {
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
  /** Called with each pushed change, as it is pushed (a test may change the service then). */
  onPush?: (change: { id: string; status?: string }) => void;
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
  broadcast: (message: Seam['pushed'][number]) => {
    seam.pushed.push(message);
    if (message.change) seam.onPush?.(message.change);
  },
}));

export const API_URL = 'http://127.0.0.1:8787/api/v1';

export function answer(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
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
export { recoverInterruptedWrites, routeAlarm, routeNotificationClick, seam };

/** The sandbox's document, its server pointing at the default API URL. */
export function serviceDocument(base: ReturnType<typeof writesDocument> = writesDocument()) {
  return { ...base, servers: [{ url: API_URL }] };
}

export const EXTENSION_PAGE = {
  id: fakeBrowser.runtime.id,
  origin: `chrome-extension://${fakeBrowser.runtime.id}`,
};
export const CONTENT_SCRIPT = {
  id: fakeBrowser.runtime.id,
  tab: { id: 7 },
  frameId: 0,
  url: 'https://finance.example/q',
};

export const pageDraft = {
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

export let registry: HandlerRegistry;

/** The token each draft's window was last given: a window's Confirm carries it back. */
export const tokens = new Map<string, string>();

/** Tab ids of confirm windows: the window's id plus this (the fake browser puts no tab in a new window). */
export const WINDOW_TAB = 10_000;

/** The draft's confirm window as a sender: the extension page in the tab of the window the draft was opened in. */
export async function draftWindowSender(id: string): Promise<unknown> {
  const windowId = (await readWrite<WriteDraft>(id))?.windowId;
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
export async function send(type: string, payload: unknown, explicitSender?: unknown) {
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

export async function value<T>(type: string, payload: unknown): Promise<T> {
  const answer = await send(type, payload);
  if (!answer.ok) throw new Error(`${type}: ${answer.error.code} ${answer.error.message}`);
  return answer.value as T;
}

/** Queues a write as the side panel does, and opens it as the confirm window does. */
export async function queueAction(operationId: string, extra: Record<string, unknown>): Promise<string> {
  const id = (await value<{ draftId: string }>('requestWrite', { operationId, ...extra })).draftId;
  await value<PendingWrite>('getPendingWrite', { id });
  return id;
}

/** The draft's window loads it again (after a failure, the user edits and confirms anew). */
export async function showAgain(id: string): Promise<PendingWrite> {
  return value<PendingWrite>('getPendingWrite', { id });
}

export function failWith(
  status: number,
  body: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  seam.answers.push(() => answer({ title: 'Refused', status, ...body }, status, headers));
}

export function failOffline() {
  seam.answers.push(() => {
    throw new TypeError('connection reset');
  });
}

beforeEach(async () => {
  tokens.clear();
  seam.pushed.length = 0;
  seam.onPush = undefined;
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
  await (await database()).clear('outbox');
  registry = createHandlerRegistry({
    extensionId: fakeBrowser.runtime.id,
    extensionOrigin: `chrome-extension://${fakeBrowser.runtime.id}`,
  });
  registerWriteHandlers(registry);
  // The switchboard's routes, as startBackground adds them (switchboard.test.ts checks that wiring).
  fakeBrowser.alarms.onAlarm.addListener(routeAlarm);
  fakeBrowser.notifications.onClicked.addListener(routeNotificationClick);
});
