import { afterEach, beforeEach, expect } from 'vitest';
/** Test support for the API client: a contract-shaped OpenAPI document, a recording fake fetch and a clock. */
import { setLogSink, type LogRecord } from '@/lib/log';
import { createApiClient, RateLimitGate, RetryBudget, type ApiClientDeps, type HoldStore } from '@/lib/api';

export const API_URL = 'https://api.example.test/v1';
export const API_ORIGIN = 'https://api.example.test';
export const SITE_URL = 'https://www.example.test';
export const SENTINEL_KEY = 'sk_sentinel_4f0c2a9b7e1d5c3a8b6f';
export const START = Date.UTC(2026, 0, 15, 12, 0, 0);

export function openApiDocument(overrides: { serverUrl?: string; limit?: Record<string, unknown> } = {}) {
  const playbookRef = { $ref: '#/components/schemas/Playbook' };
  const listOf = (schema: unknown) => ({
    '200': {
      description: 'ok',
      content: {
        'application/json': {
          schema: { type: 'object', properties: { data: { type: 'array', items: schema } } },
        },
      },
    },
  });
  return {
    openapi: '3.1.0',
    info: { title: 'Investing Agent Service', version: '1.0.0' },
    servers: [{ url: overrides.serverUrl ?? API_URL }],
    security: [{ bearerAuth: [] }],
    'x-unknown-extension': { kept: true },
    paths: {
      '/status': { get: { operationId: 'getStatus', security: [], responses: {} } },
      '/public/playbooks': {
        get: {
          operationId: 'listPublicPlaybooks',
          security: [],
          parameters: [{ $ref: '#/components/parameters/Limit' }, { $ref: '#/components/parameters/Cursor' }],
          responses: listOf(playbookRef),
        },
      },
      '/account': { get: { operationId: 'getAccount', responses: {} } },
      '/playbooks': {
        get: {
          operationId: 'listPlaybooks',
          parameters: [
            { $ref: '#/components/parameters/Limit' },
            { $ref: '#/components/parameters/Cursor' },
            { name: 'visibility', in: 'query', schema: { enum: ['private', 'unlisted', 'public'] } },
          ],
          responses: listOf(playbookRef),
        },
        post: {
          operationId: 'createPlaybook',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPlaybook' } } },
          },
          responses: {},
        },
      },
      '/legacy/playbooks': {
        get: {
          operationId: 'listPlaybooksLegacy',
          deprecated: true,
          'x-sunset': '2025-06-30',
          'x-replaced-by': 'listPlaybooks',
          parameters: [{ $ref: '#/components/parameters/Limit' }],
          responses: {},
        },
      },
      '/playbooks/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        get: { operationId: 'getPlaybook', responses: {} },
        patch: {
          operationId: 'updatePlaybook',
          parameters: [{ name: 'If-Match', in: 'header', required: true, schema: { type: 'string' } }],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/PlaybookPatch' } } },
          },
          responses: {},
        },
      },
      '/playbooks/{id}/activate': { post: { operationId: 'activatePlaybook', responses: {} } },
      '/playbooks:batchGet': {
        post: {
          operationId: 'batchGetPlaybooks',
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['ids'],
                  additionalProperties: false,
                  properties: {
                    ids: {
                      type: 'array',
                      minItems: 1,
                      maxItems: 50,
                      items: { type: 'string', minLength: 1 },
                    },
                  },
                },
              },
            },
          },
          responses: {},
        },
      },
      '/events': {
        get: {
          operationId: 'listEvents',
          parameters: [{ $ref: '#/components/parameters/Limit' }, { $ref: '#/components/parameters/Cursor' }],
          responses: {},
        },
      },
      '/events/stream': { get: { operationId: 'streamEvents', responses: {} } },
      '/graphql': {
        post: {
          operationId: 'graphql',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { type: 'object', required: ['query'] } } },
          },
          responses: {},
        },
      },
    },
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
      parameters: {
        Limit: {
          name: 'limit',
          in: 'query',
          schema: { type: 'integer', minimum: 1, maximum: 100, default: 20, ...overrides.limit },
        },
        Cursor: { name: 'cursor', in: 'query', schema: { type: 'string' } },
      },
      schemas: {
        Source: {
          type: 'object',
          required: ['url', 'title'],
          properties: {
            url: { type: 'string', format: 'uri' },
            title: { type: 'string' },
            excerpt: { type: 'string', maxLength: 500 },
          },
        },
        NewPlaybook: {
          type: 'object',
          required: ['title', 'thesis', 'visibility'],
          additionalProperties: false,
          properties: {
            title: { type: 'string', minLength: 1, maxLength: 120 },
            thesis: { type: 'string', minLength: 1 },
            visibility: { enum: ['private', 'unlisted', 'public'] },
            tickers: {
              type: 'array',
              maxItems: 20,
              items: { type: 'string', pattern: '^[A-Z][A-Z0-9.]{0,9}$' },
            },
            source: { $ref: '#/components/schemas/Source' },
          },
        },
        PlaybookPatch: {
          type: 'object',
          minProperties: 1,
          additionalProperties: false,
          properties: { title: { type: 'string', minLength: 1 }, thesis: { type: 'string' } },
        },
        Playbook: { type: 'object' },
      },
    },
  };
}

export function playbook(id: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    title: `Playbook ${id}`,
    thesis: 'Thesis',
    visibility: 'private',
    status: 'draft',
    tickers: ['AAPL'],
    owner: { id: 'u1', name: 'Ada' },
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    etag: `"${id}-1"`,
    ...extra,
  };
}

export interface RecordedRequest {
  url: string;
  origin: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

export type Route = (request: Request, recorded: RecordedRequest) => Response | Promise<Response>;

export function json(
  body: unknown,
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'content-type': 'application/json', ...init.headers },
  });
}

export function problem(
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify({ status, ...body }), {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });
}

/** A fake fetch that records every request (headers included) and answers from a route function. */
export function fakeFetch(route: Route) {
  const requests: RecordedRequest[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const recorded: RecordedRequest = {
      url: request.url,
      origin: new URL(request.url).origin,
      method: request.method,
      headers: Object.fromEntries(request.headers.entries()),
      body: request.body ? await request.clone().text() : '',
    };
    requests.push(recorded);
    const signal = init?.signal;
    // Like a real fetch, an abort rejects the pending request even when the route never answers.
    return new Promise<Response>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason as Error);
        return;
      }
      signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      Promise.resolve()
        .then(() => route(request, recorded))
        .then(resolve, reject);
    });
  }) as typeof globalThis.fetch;
  return { fetch, requests };
}

/** A clock that only moves when the code under test sleeps. */
export function fakeClock(start = START) {
  let current = start;
  const sleeps: number[] = [];
  return {
    now: () => current,
    advance: (ms: number) => {
      current += ms;
    },
    sleeps,
    sleep: (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) return Promise.reject(signal.reason as Error);
      sleeps.push(ms);
      current += ms;
      return Promise.resolve();
    },
  };
}

export function memoryHoldStore(): HoldStore & { values: Map<string, number> } {
  const values = new Map<string, number>();
  return {
    values,
    get: (origin) => Promise.resolve(values.get(origin)),
    set: (origin, until) => {
      values.set(origin, until);
      return Promise.resolve();
    },
  };
}

/** Captures every log record for the test; returns the records and the restore function. */
export function captureLogs() {
  const records: LogRecord[] = [];
  const restore = setLogSink((record) => records.push(record));
  return { records, restore };
}

/**
 * For every test of the calling file: logs are captured, and no record may carry the key, whatever
 * path the test took. Returns the current test's records.
 */
export function keepKeyOutOfLogs(): () => LogRecord[] {
  let capture: ReturnType<typeof captureLogs> | undefined;
  beforeEach(() => {
    capture = captureLogs();
  });
  afterEach(() => {
    expect(JSON.stringify(capture?.records ?? [])).not.toContain(SENTINEL_KEY);
    capture?.restore();
  });
  return () => capture?.records ?? [];
}

export function clientFor(route: Route, extra: Partial<ApiClientDeps> = {}) {
  const clock = fakeClock();
  const { fetch, requests } = fakeFetch(route);
  const holdStore = memoryHoldStore();
  const gate = new RateLimitGate({
    origin: API_ORIGIN,
    now: clock.now,
    sleep: clock.sleep,
    holdStore,
    maxInWorkerWaitMs: 20_000,
  });
  const budget = new RetryBudget({ capacity: 10, refillPerSecond: 1, now: clock.now });
  const client = createApiClient({
    apiUrl: API_URL,
    siteUrl: SITE_URL,
    openApi: openApiDocument(),
    openApiUrl: `${SITE_URL}/openapi.json`,
    fetch,
    getApiKey: () => Promise.resolve(SENTINEL_KEY),
    now: clock.now,
    random: () => 0.5,
    sleep: clock.sleep,
    timeoutSignal: () => new AbortController().signal,
    rateLimitGate: gate,
    retryBudget: budget,
    ...extra,
  });
  return { client, requests, clock, gate, budget, holdStore };
}

/** Runs a promise expected to reject and returns its reason. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

type Doc = ReturnType<typeof openApiDocument>;
const post = (operationId: string, extra: Record<string, unknown> = {}) => ({
  post: { operationId, responses: {}, ...extra },
});

/** The contract's document with every write of the table, on the sandbox's paths. */
export function writesDocument(): Doc & { paths: Record<string, unknown> } {
  const doc = openApiDocument() as Doc & { paths: Record<string, unknown> };
  doc.paths['/playbooks/{id}/pause'] = post('pausePlaybook');
  doc.paths['/playbooks/{id}/backtests'] = post('runBacktest', {
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: { type: 'object', required: ['start', 'end'], properties: { start: {}, end: {} } },
        },
      },
    },
  });
  doc.paths['/billing/checkout-sessions'] = post('createCheckoutSession');
  doc.paths['/brokerage/links'] = post('createBrokerageLink');
  return doc;
}

/**
 * A second dialect of the contract: other paths, the playbook's path parameter named `bookId`,
 * other page-size bounds. Everything the extension needs is still found by operationId.
 */
export function bookIdDialectDocument() {
  const doc = writesDocument();
  const paths = doc.paths;
  const bookId = [{ name: 'bookId', in: 'path', required: true, schema: { type: 'string' } }];
  const rename: Array<[string, string]> = [
    ['/playbooks/{id}', '/books/{bookId}'],
    ['/playbooks/{id}/activate', '/books/{bookId}/live:start'],
    ['/playbooks/{id}/pause', '/books/{bookId}/live:stop'],
    ['/playbooks/{id}/backtests', '/books/{bookId}/backtests'],
    ['/playbooks', '/books'],
  ];
  for (const [from, to] of rename) {
    const item = paths[from] as Record<string, unknown>;
    delete paths[from];
    paths[to] = from.includes('{id}') ? { ...item, parameters: bookId } : item;
  }
  (doc.components.parameters.Limit.schema as Record<string, unknown>).maximum = 25;
  (doc.components.parameters.Limit.schema as Record<string, unknown>).default = 10;
  return doc;
}

/**
 * A document in the AIP-136 style: writes are custom methods on the resource
 * (`/strategies/{name}:goLive`), the batch read a custom method on the collection
 * (`/strategies:batchGet`), under a `/v3` prefix of their own.
 */
export function customMethodDocument() {
  const doc = writesDocument();
  const paths = doc.paths;
  const name = [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }];
  const rename: Array<[string, string]> = [
    ['/playbooks/{id}/activate', '/strategies/{name}:goLive'],
    ['/playbooks/{id}/pause', '/strategies/{name}:halt'],
    ['/playbooks/{id}/backtests', '/strategies/{name}:backtest'],
    ['/playbooks:batchGet', '/strategies:batchGet'],
    ['/playbooks/{id}', '/strategies/{name}'],
    ['/playbooks', '/strategies'],
  ];
  for (const [from, to] of rename) {
    const item = paths[from] as Record<string, unknown> | undefined;
    if (!item) throw new Error(`no ${from} in the writes document`);
    delete paths[from];
    paths[to] = from.includes('{id}') ? { ...item, parameters: name } : item;
  }
  return doc;
}

/** The account the service answers getAccount with in these tests. */
export const account = {
  id: 'u1',
  name: 'Ada',
  email: 'ada@example.test',
  plan: 'pro',
  permissions: ['playbooks:read'],
  brokerage_linked: false,
};

/** Requests that carried the key anywhere but the API origin. */
export function keyLeaks(requests: RecordedRequest[]) {
  return requests.filter(
    (request) => JSON.stringify(request).includes(SENTINEL_KEY) && request.origin !== API_ORIGIN,
  );
}

/** The service status getStatus answers with in these tests. */
export const status = {
  status: 'operational',
  components: [{ name: 'api', status: 'operational' }],
  updated_at: '2026-01-15T12:00:00Z',
};
