import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api';
import {
  API_ORIGIN,
  keepKeyOutOfLogs,
  account,
  clientFor,
  json,
  keyLeaks,
  playbook,
  problem,
  rejection,
  SENTINEL_KEY,
  SITE_URL,
} from './support';

const logs = keepKeyOutOfLogs();

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

  it('without an injected timeout signal, the attempt runs its own timer: a hung attempt ends and is retried', async () => {
    let calls = 0;
    const { client, requests } = clientFor(
      () => (++calls === 1 ? new Promise<Response>(() => undefined) : json(account)),
      { timeoutSignal: undefined, attemptTimeoutMs: 20 },
    );
    const result = await client.call('getAccount');
    expect(result.data.id).toBe('u1');
    expect(requests).toHaveLength(2);
  });

  it("the attempt's own timer is cleared once the answer is read, so none is left per page", async () => {
    vi.useFakeTimers();
    try {
      const { client } = clientFor(() => json(account), { timeoutSignal: undefined });
      await client.call('getAccount');
      await client.call('getAccount');
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
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
    expect(logs().some((record) => record.event === 'api.operation.deprecated')).toBe(true);
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
