import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LogRecord } from '@/lib/log';
import { ApiError, type Page } from '@/lib/api';
import {
  API_ORIGIN,
  API_URL,
  captureLogs,
  clientFor,
  json,
  openApiDocument,
  playbook,
  problem,
  rejection,
  SENTINEL_KEY,
  SITE_URL,
  type RecordedRequest,
} from './support';

let logs: LogRecord[];
let restoreLogs: () => void;
beforeEach(() => {
  ({ records: logs, restore: restoreLogs } = captureLogs());
});
afterEach(() => {
  // No record of any test may carry the key, whatever path the test took.
  expect(JSON.stringify(logs)).not.toContain(SENTINEL_KEY);
  restoreLogs();
});

const status = {
  status: 'operational',
  components: [{ name: 'api', status: 'operational' }],
  updated_at: '2026-01-15T12:00:00Z',
};
const account = {
  id: 'u1',
  name: 'Ada',
  email: 'ada@example.test',
  plan: 'pro',
  permissions: ['playbooks:read'],
  brokerage_linked: false,
};

function keyLeaks(requests: RecordedRequest[]) {
  return requests.filter(
    (request) => JSON.stringify(request).includes(SENTINEL_KEY) && request.origin !== API_ORIGIN,
  );
}

describe('authentication and origin pinning', () => {
  it('sends the key as a bearer token only on operations that require auth', async () => {
    const { client, requests } = clientFor((request) =>
      new URL(request.url).pathname.endsWith('/status') ? json(status) : json(account),
    );
    await client.call('getStatus');
    await client.call('getAccount');
    expect(requests.map((request) => [new URL(request.url).pathname, request.headers.authorization])).toEqual(
      [
        ['/v1/status', undefined],
        ['/v1/account', `Bearer ${SENTINEL_KEY}`],
      ],
    );
    expect(requests.every((request) => request.headers.cookie === undefined)).toBe(true);
  });

  it('refuses an operation whose server is another origin, before fetching the key or sending anything', async () => {
    let keyAsked = false;
    const { client, requests } = clientFor(() => json(account), {
      openApi: openApiDocument({ serverUrl: 'https://evil.example.test/v1' }),
      getApiKey: () => {
        keyAsked = true;
        return Promise.resolve(SENTINEL_KEY);
      },
    });
    const error = (await rejection(client.call('getAccount'))) as ApiError;
    expect(error.kind).toBe('origin-refused');
    expect(error.message).toContain('https://evil.example.test');
    expect(error.message).toContain(API_ORIGIN);
    expect(requests).toEqual([]);
    expect(keyAsked).toBe(false);
  });

  it.each([
    ['another origin', 'https://evil.example.test/v1/account'],
    ['a different port', 'https://api.example.test:8443/v1/account'],
    ['plain http', 'http://api.example.test/v1/account'],
  ])('refuses a redirect to %s and never sends the key there', async (_name, location) => {
    const { client, requests } = clientFor((request) =>
      new URL(request.url).origin === API_ORIGIN
        ? new Response(null, { status: 302, headers: { location } })
        : json(account),
    );
    const error = (await rejection(client.call('getAccount'))) as ApiError;
    expect(error.kind).toBe('origin-refused');
    expect(error.message).toContain('redirected');
    expect(requests).toHaveLength(1);
    expect(keyLeaks(requests)).toEqual([]);
  });

  it('follows a same-origin redirect, still carrying the key only to the API origin', async () => {
    const { client, requests } = clientFor((request) =>
      new URL(request.url).pathname === '/v1/account'
        ? new Response(null, { status: 307, headers: { location: '/v1/me' } })
        : json(account),
    );
    const result = await client.call('getAccount');
    expect(result.data.email).toBe('ada@example.test');
    expect(requests.map((request) => request.url)).toEqual([`${API_URL}/account`, `${API_URL}/me`]);
    expect(requests.every((request) => request.headers.authorization === `Bearer ${SENTINEL_KEY}`)).toBe(
      true,
    );
  });

  it('refuses an opaque redirect (the browser hides where it goes)', async () => {
    const opaque = {
      type: 'opaqueredirect',
      status: 0,
      headers: new Headers(),
      url: '',
      body: null,
    } as unknown as Response;
    const { client } = clientFor(() => opaque);
    expect(((await rejection(client.call('getAccount'))) as ApiError).kind).toBe('origin-refused');
  });

  it('refuses an answer whose final URL left the origin (a fetch that followed on its own)', async () => {
    const { client } = clientFor(() => {
      const response = json(account);
      Object.defineProperty(response, 'url', { value: 'https://evil.example.test/account' });
      return response;
    });
    expect(((await rejection(client.call('getAccount'))) as ApiError).kind).toBe('origin-refused');
  });

  it('uses redirect: manual and credentials: omit', async () => {
    let seen: Request | undefined;
    const { client } = clientFor((request) => {
      seen = request;
      return json(status);
    });
    await client.call('getStatus');
    expect(seen?.redirect).toBe('manual');
    expect(seen?.credentials).toBe('omit');
  });

  it('without a key, an auth operation is refused with the /apikey link and nothing is sent', async () => {
    const { client, requests } = clientFor(() => json(account), {
      getApiKey: () => Promise.resolve(undefined),
    });
    const error = (await rejection(client.call('getAccount'))) as ApiError;
    expect(error.kind).toBe('unauthorized');
    expect(error.link).toBe(`${SITE_URL}/apikey`);
    expect(requests).toEqual([]);
  });

  it('a caller cannot set Authorization or Idempotency-Key itself', async () => {
    const { client, requests } = clientFor(() => json(status));
    for (const header of ['Authorization', 'cookie', 'Idempotency-Key']) {
      const error = (await rejection(client.call('getStatus', { headers: { [header]: 'x' } }))) as ApiError;
      expect(error.kind).toBe('validation');
    }
    expect(requests).toEqual([]);
  });
});

describe('errors by status', () => {
  it('401 → sign in or create a key at /apikey, and the key is not in the error', async () => {
    const { client } = clientFor(() =>
      problem(401, { title: 'Unauthorized', detail: `Key ${SENTINEL_KEY} is revoked`, code: 'invalid_key' }),
    );
    const error = (await rejection(client.call('getAccount'))) as ApiError;
    expect(error.kind).toBe('unauthorized');
    expect(error.message).toContain(`Sign in or create a key at ${SITE_URL}/apikey`);
    expect(JSON.stringify(error.toJSON())).not.toContain(SENTINEL_KEY);
    expect(error.message).not.toContain('Bearer');
  });

  it('403 → the missing account state from the problem body', async () => {
    const { client } = clientFor(() =>
      problem(403, {
        title: 'Forbidden',
        detail: 'No brokerage is linked.',
        code: 'brokerage_not_linked',
        account_state: 'no_brokerage',
      }),
    );
    const error = (await rejection(client.call('getPlaybook', { path: { id: 'pb_1' } }))) as ApiError;
    expect(error.kind).toBe('forbidden');
    expect(error.accountState).toBe('no_brokerage');
    expect(error.message).toContain('No brokerage is linked.');
    expect(error.message).toContain('getPlaybook');
  });

  it('400 from the service maps errors[] to fields', async () => {
    const { client } = clientFor(() =>
      problem(400, {
        title: 'Bad request',
        code: 'invalid_query',
        errors: [{ path: 'visibility', message: 'Unknown value.' }],
      }),
    );
    const error = (await rejection(
      client.call('listPlaybooks', { query: { visibility: 'private' } }),
    )) as ApiError;
    expect(error.fieldErrors).toEqual({ '/visibility': 'Unknown value.' });
  });

  it.each([
    [
      'invalid JSON',
      () => new Response('{"status": "oper', { headers: { 'content-type': 'application/json' } }),
    ],
    [
      'an HTML page',
      () => new Response('<html>maintenance</html>', { headers: { 'content-type': 'text/html' } }),
    ],
    ['a body of the wrong shape', () => json({ status: 'fine' })],
    ['an oversized body', () => json({ padding: 'x'.repeat(5_000) })],
  ])('a 200 with %s is malformed-response, not retried', async (_name, answer) => {
    const { client, requests } = clientFor(answer, { maxBodyBytes: 4_096 });
    const error = (await rejection(client.call('getStatus'))) as ApiError;
    expect(error.kind).toBe('malformed-response');
    expect(error.operationId).toBe('getStatus');
    expect(requests).toHaveLength(1);
  });
});

describe('retries', () => {
  it('retries 5xx and network failures with backoff, then reports the operation', async () => {
    let calls = 0;
    const { client, requests, clock } = clientFor(() => {
      calls++;
      if (calls === 2) throw new TypeError('fetch failed');
      return problem(503, { title: 'Unavailable' });
    });
    const error = (await rejection(client.call('getAccount'))) as ApiError;
    expect(requests).toHaveLength(4);
    expect(clock.sleeps).toHaveLength(3);
    expect(error.kind).toBe('server');
    expect(error.attempts).toBe(4);
    expect(error.message).toBe(
      'getAccount failed after 4 attempts: the service answered 503 (no attempts left).',
    );
  });

  it.each([400, 401, 403, 404, 409, 412, 422])('never retries %i', async (code) => {
    const { client, requests } = clientFor(() => problem(code, { title: 'No' }));
    await rejection(client.call('getAccount'));
    expect(requests).toHaveLength(1);
  });

  it('a hung attempt is ended by the per-attempt timeout and retried', async () => {
    let calls = 0;
    const { client, requests } = clientFor(
      () => (++calls === 1 ? new Promise<Response>(() => undefined) : json(account)),
      { timeoutSignal: (ms) => AbortSignal.timeout(ms), attemptTimeoutMs: 20 },
    );
    const result = await client.call('getAccount');
    expect(result.data.id).toBe('u1');
    expect(requests).toHaveLength(2);
  });

  it('attempts that keep timing out end as a timeout naming the operation', async () => {
    const { client } = clientFor(() => new Promise<Response>(() => undefined), {
      timeoutSignal: (ms) => AbortSignal.timeout(ms),
      attemptTimeoutMs: 5,
      backoff: { maxAttempts: 2 },
    });
    const error = (await rejection(client.call('getAccount'))) as ApiError;
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe(
      'getAccount failed after 2 attempts: the service did not answer in time (no attempts left).',
    );
  });

  it('a caller abort is not retried', async () => {
    const controller = new AbortController();
    const { client, requests } = clientFor(() => {
      controller.abort();
      return new Promise<Response>(() => undefined);
    });
    const error = (await rejection(client.call('getAccount', { signal: controller.signal }))) as ApiError;
    expect(error.message).toBe('getAccount was cancelled.');
    expect(requests).toHaveLength(1);
  });

  it('a 429 retries after Retry-After and succeeds', async () => {
    let limited = true;
    const { client, requests, clock, holdStore } = clientFor(() => {
      if (limited) {
        limited = false;
        return problem(429, { title: 'Too many' }, { 'retry-after': '3', ratelimit: '"default";r=0;t=3' });
      }
      return json(account, {
        headers: { ratelimit: '"default";r=9;t=60', 'ratelimit-policy': '"default";q=10;w=60' },
      });
    });
    const start = clock.now();
    const result = await client.call('getAccount');
    expect(result.data.id).toBe('u1');
    expect(requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([3_000]);
    expect(holdStore.values.get(API_ORIGIN)).toBe(start + 3_000);
    expect(client.rateLimitState()).toMatchObject({
      remaining: 9,
      quota: 10,
      windowSeconds: 60,
      heldUntil: undefined,
    });
  });

  it('after a 429 on one operation, every other call to the origin waits too', async () => {
    const sentAt: Record<string, number> = {};
    let now = () => 0;
    const setup = clientFor(
      (request) => {
        const path = new URL(request.url).pathname;
        sentAt[path] = now();
        return path.endsWith('/status')
          ? problem(429, { title: 'Too many' }, { 'retry-after': '5' })
          : json(account);
      },
      { backoff: { maxAttempts: 1 } },
    );
    now = setup.clock.now;
    const start = setup.clock.now();
    expect(((await rejection(setup.client.call('getStatus'))) as ApiError).kind).toBe('rate-limited');
    await setup.client.call('getAccount');
    expect(sentAt['/v1/status']).toBe(start);
    expect(sentAt['/v1/account']).toBeGreaterThanOrEqual(start + 5_000);
  });

  it('a 429 asking for a long wait becomes deferred with retryAt (for alarms)', async () => {
    const { client, clock } = clientFor(() => problem(429, { title: 'Too many' }, { 'retry-after': '600' }));
    const error = (await rejection(client.call('getAccount'))) as ApiError;
    expect(error.kind).toBe('deferred');
    expect(error.retryAt).toBe(clock.now() + 600_000);
    expect(client.rateLimitState().heldUntil).toBe(clock.now() + 600_000);
  });
});

describe('coalescing, deprecations', () => {
  it('identical concurrent reads share one request', async () => {
    const { client, requests } = clientFor(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return json(account);
    });
    const results = await Promise.all([
      client.call('getAccount'),
      client.call('getAccount'),
      client.call('getAccount'),
    ]);
    expect(requests).toHaveLength(1);
    expect(results.map((result) => result.data.id)).toEqual(['u1', 'u1', 'u1']);
    await client.call('getAccount');
    expect(requests).toHaveLength(2);
  });

  it('different reads are not coalesced', async () => {
    const { client, requests } = clientFor((request) =>
      json(playbook(new URL(request.url).pathname.split('/').pop()!)),
    );
    await Promise.all([
      client.call('getPlaybook', { path: { id: 'a' } }),
      client.call('getPlaybook', { path: { id: 'b' } }),
    ]);
    expect(requests).toHaveLength(2);
  });

  it('a legacy call goes to the current operation and is listed as a deprecation', async () => {
    const { client, requests } = clientFor(() => json({ data: [], has_more: false, next_cursor: null }));
    const result = await client.call('listPlaybooksLegacy');
    expect(result.operationId).toBe('listPlaybooks');
    expect(new URL(requests[0].url).pathname).toBe('/v1/playbooks');
    expect(client.deprecations()).toEqual([
      expect.objectContaining({
        operationId: 'listPlaybooksLegacy',
        deprecated: true,
        replacedBy: 'listPlaybooks',
      }),
    ]);
    expect(logs.some((record) => record.event === 'api.operation.deprecated')).toBe(true);
  });

  it('records Deprecation, Sunset and successor Link headers per operation', async () => {
    const { client } = clientFor(() =>
      json(account, {
        headers: {
          deprecation: '@1767225600',
          sunset: 'Tue, 30 Jun 2026 00:00:00 GMT',
          link: '</v2/account>; rel="successor-version", <https://docs.example.test>; rel="deprecation"',
        },
      }),
    );
    await client.call('getAccount');
    expect(client.deprecations()).toEqual([
      expect.objectContaining({
        operationId: 'getAccount',
        deprecated: true,
        deprecatedAt: 1767225600_000,
        sunsetAt: Date.UTC(2026, 5, 30),
        successorUrl: 'https://api.example.test/v2/account',
      }),
    ]);
  });

  it('refuses to call writes outside write()', async () => {
    const { client, requests } = clientFor(() => json(playbook('p')));
    const error = (await rejection(
      client.call('createPlaybook', { body: { title: 't', thesis: 't', visibility: 'private' } }),
    )) as ApiError;
    expect(error.kind).toBe('unconfirmed-write');
    expect(requests).toEqual([]);
  });
});

async function collect<T>(pages: AsyncGenerator<Page<T>>): Promise<Page<T>[]> {
  const out: Page<T>[] = [];
  for await (const page of pages) out.push(page);
  return out;
}

describe('pagination', () => {
  it('follows next_cursor while has_more, with the declared default page size', async () => {
    const { client, requests } = clientFor((request) => {
      const cursor = new URL(request.url).searchParams.get('cursor');
      if (!cursor) return json({ data: [playbook('a')], has_more: true, next_cursor: 'c1' });
      if (cursor === 'c1') return json({ data: [playbook('b')], has_more: true, next_cursor: 'c2' });
      return json({ data: [playbook('c')], has_more: false, next_cursor: null });
    });
    const pages = await collect(client.paginate('listPlaybooks', { query: { visibility: 'private' } }));
    expect(pages.map((page) => page.items.length)).toEqual([1, 1, 1]);
    expect(pages.at(-1)).toMatchObject({ complete: true, stopReason: 'end' });
    expect(pages.slice(0, -1).every((page) => !page.complete)).toBe(true);
    expect(requests.map((request) => new URL(request.url).search)).toEqual([
      '?visibility=private&limit=20',
      '?visibility=private&limit=20&cursor=c1',
      '?visibility=private&limit=20&cursor=c2',
    ]);
  });

  it.each([
    ['the sandbox bounds clamp a huge page size', {}, 10_000, '100'],
    ['a smaller deployment clamps to its maximum', { maximum: 25, default: 10 }, 10_000, '25'],
    ['a smaller deployment uses its default', { maximum: 25, default: 10 }, undefined, '10'],
    ['zero becomes the minimum', {}, 0, '1'],
  ])('%s', async (_name, limit, pageSize, expected) => {
    const { client, requests } = clientFor(() => json({ data: [], has_more: false, next_cursor: null }), {
      openApi: openApiDocument({ limit }),
    });
    await collect(client.paginate('listPlaybooks', { pageSize }));
    expect(new URL(requests[0].url).searchParams.get('limit')).toBe(expected);
  });

  it('stops on a cursor it has already seen and does not claim completeness', async () => {
    const { client, requests } = clientFor((request) => {
      const cursor = new URL(request.url).searchParams.get('cursor');
      return json({
        data: [playbook(cursor ?? 'first')],
        has_more: true,
        next_cursor: cursor === 'c1' ? 'c2' : 'c1',
      });
    });
    const pages = await collect(client.paginate('listPlaybooks', { maxPages: 50 }));
    expect(requests).toHaveLength(3);
    expect(pages.at(-1)).toMatchObject({ stopReason: 'repeated-cursor', complete: false, hasMore: true });
  });

  it('stops an endless has_more at maxPages', async () => {
    let n = 0;
    const { client, requests } = clientFor(() => json({ data: [], has_more: true, next_cursor: `c${++n}` }));
    const pages = await collect(client.paginate('listPlaybooks', { maxPages: 4 }));
    expect(requests).toHaveLength(4);
    expect(pages.at(-1)).toMatchObject({ stopReason: 'max-pages', complete: false });
  });

  it('has_more with no cursor stops without claiming completeness', async () => {
    const { client } = clientFor(() => json({ data: [], has_more: true, next_cursor: null }));
    const pages = await collect(client.paginate('listPlaybooks'));
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({ stopReason: 'missing-cursor', complete: false });
  });

  it('GraphQL connections follow the same rules', async () => {
    const bodies: unknown[] = [];
    const node = (id: string) => ({ id, title: id, visibility: 'PRIVATE', status: 'DRAFT' });
    const { client, requests } = clientFor(async (request) => {
      const body = (await request.json()) as { variables: { after?: string } };
      bodies.push(body);
      const after = body.variables.after;
      return json({
        data: {
          playbooks: {
            edges: [{ cursor: `e-${after ?? 0}`, node: node(after ?? 'first') }],
            pageInfo:
              after === 'p2'
                ? { hasNextPage: true, endCursor: 'p1' }
                : { hasNextPage: true, endCursor: after ? 'p2' : 'p1' },
          },
        },
      });
    });
    const pages = await collect(client.paginateGraphQL({ pageSize: 1_000, visibility: 'private' }));
    expect(requests).toHaveLength(3);
    expect(
      requests.every(
        (request) => request.method === 'POST' && request.headers.authorization === `Bearer ${SENTINEL_KEY}`,
      ),
    ).toBe(true);
    expect(bodies[0]).toMatchObject({ variables: { first: 100, visibility: 'PRIVATE' } });
    expect(pages.at(-1)).toMatchObject({ stopReason: 'repeated-cursor', complete: false });
    expect(pages[0].items[0]).toMatchObject({ id: 'first', visibility: 'private', status: 'draft' });
  });
});

describe('a playbook list past its sunset', () => {
  it('walks the GraphQL successor and hands back REST-shaped playbooks', async () => {
    const document = openApiDocument() as { paths: Record<string, { get?: Record<string, unknown> }> };
    Object.assign(document.paths['/playbooks'].get!, {
      deprecated: true,
      'x-sunset': '2025-06-30',
      'x-replaced-by': 'graphql',
    });
    const bodies: { query: string; variables: Record<string, unknown> }[] = [];
    const { client, requests } = clientFor(
      async (request) => {
        bodies.push((await request.json()) as (typeof bodies)[number]);
        return json({
          data: {
            playbooks: {
              edges: [
                {
                  cursor: 'c1',
                  node: {
                    id: 'pb_1',
                    title: 'Grid capex',
                    thesis: 't',
                    visibility: 'PUBLIC',
                    status: 'ACTIVE',
                    tickers: ['NEE'],
                    createdAt: '2026-01-01T00:00:00Z',
                    updatedAt: '2026-01-02T00:00:00Z',
                    etag: '"e1"',
                    owner: { id: 'u1', name: 'Demo' },
                  },
                },
              ],
              pageInfo: { hasNextPage: false, endCursor: 'c1' },
            },
          },
        });
      },
      { openApi: document },
    );
    const pages = await collect(
      client.paginate('listPlaybooks', { query: { visibility: 'public' }, maxPages: 1 }),
    );
    expect(requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual(['POST /v1/graphql']);
    expect(bodies[0].query).toContain('playbooks(');
    expect(bodies[0].variables).toMatchObject({ visibility: 'PUBLIC' });
    expect(pages[0].items[0]).toMatchObject({
      id: 'pb_1',
      visibility: 'public',
      status: 'active',
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-02T00:00:00Z',
    });
    expect(pages[0]).toMatchObject({ complete: true });
  });
});

describe('batchGet', () => {
  it('splits into chunks of at most 50 and keeps request order with per-item status', async () => {
    const ids = Array.from({ length: 120 }, (_, index) => `pb_${index}`);
    const { client, requests } = clientFor(async (request) => {
      const { ids: chunk } = (await request.json()) as { ids: string[] };
      // The service answers in reverse order; the client must restore request order.
      const results = chunk
        .map((id) =>
          Number(id.slice(3)) % 7 === 0
            ? { id, status: 404, error: { title: 'Not found', status: 404 } }
            : { id, status: 200, playbook: playbook(id) },
        )
        .reverse();
      return json({ results });
    });
    const results = await client.batchGet(ids);
    expect(requests.map((request) => (JSON.parse(request.body) as { ids: string[] }).ids.length)).toEqual([
      50, 50, 20,
    ]);
    expect(results.map((item) => item.id)).toEqual(ids);
    expect(results.filter((item) => item.status === 404).map((item) => item.id)).toEqual(
      ids.filter((_, index) => index % 7 === 0),
    );
  });

  it('a chunk that fails after retries marks its items failed and keeps the others', async () => {
    let call = 0;
    const { client } = clientFor(async (request) => {
      call++;
      const { ids: chunk } = (await request.json()) as { ids: string[] };
      if (call === 1)
        return json({ results: chunk.map((id) => ({ id, status: 200, playbook: playbook(id) })) });
      return problem(500, { title: 'Boom' });
    });
    const ids = Array.from({ length: 60 }, (_, index) => `pb_${index}`);
    const results = await client.batchGet(ids);
    expect(results.slice(0, 50).every((item) => item.status === 200)).toBe(true);
    expect(results.slice(50).every((item) => item.status === 'failed')).toBe(true);
    expect(results[55]).toMatchObject({
      status: 'failed',
      error: { kind: 'server', operationId: 'batchGetPlaybooks' },
    });
  });

  it('an empty list sends nothing', async () => {
    const { client, requests } = clientFor(() => json({ results: [] }));
    expect(await client.batchGet([])).toEqual([]);
    expect(requests).toEqual([]);
  });
});

describe('the key never leaves in an error', () => {
  it.each([
    ['401 echoing the key', () => problem(401, { detail: `Bearer ${SENTINEL_KEY} rejected` })],
    [
      '403 echoing the key',
      () => problem(403, { detail: `key ${SENTINEL_KEY}`, missing_permission: SENTINEL_KEY }),
    ],
    [
      '400 echoing the key in errors[]',
      () => problem(400, { errors: [{ path: SENTINEL_KEY, message: SENTINEL_KEY }] }),
    ],
    ['500 echoing the key', () => problem(500, { detail: SENTINEL_KEY })],
    [
      'a network failure whose message holds the key',
      () => Promise.reject(new TypeError(`failed with ${SENTINEL_KEY}`)),
    ],
    [
      'a redirect off the origin',
      () =>
        new Response(null, {
          status: 301,
          headers: { location: `https://evil.example.test/?k=${SENTINEL_KEY}` },
        }),
    ],
  ])('%s', async (_name, answer) => {
    const { client, requests } = clientFor(answer);
    const error = (await rejection(client.call('getAccount'))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(JSON.stringify(error.toJSON())).not.toContain(SENTINEL_KEY);
    expect(error.message).not.toContain(SENTINEL_KEY);
    expect(keyLeaks(requests)).toEqual([]);
  });
});

describe('stream()', () => {
  it('hands back an event stream once its headers are in, with the key, and the attempt timeout no longer applies', async () => {
    const encoder = new TextEncoder();
    let push: (text: string) => void = () => undefined;
    let close: () => void = () => undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        push = (text) => controller.enqueue(encoder.encode(text));
        close = () => controller.close();
      },
    });
    const { client, requests } = clientFor(
      () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
      {
        timeoutSignal: (ms) => AbortSignal.timeout(ms),
        attemptTimeoutMs: 10,
      },
    );
    const response = await client.stream('streamEvents', { headers: { 'Last-Event-ID': 'evt_9' } });
    expect(requests[0].headers).toMatchObject({
      accept: 'text/event-stream',
      'last-event-id': 'evt_9',
      authorization: `Bearer ${SENTINEL_KEY}`,
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    push('id: evt_10\nevent: playbook.created\ndata: {}\n\n');
    close();
    expect(await response.text()).toContain('evt_10');
  });

  it('a non-stream answer is malformed-response', async () => {
    const { client } = clientFor(() => json({}));
    expect(((await rejection(client.stream('streamEvents'))) as ApiError).kind).toBe('malformed-response');
  });
});
