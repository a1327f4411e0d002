import { request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/server';
import { admin, api, expectProblem, newKey, startTestSandbox } from './helpers';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ seed: 30 });
});
afterAll(() => sb.close());
afterEach(() => sb.resetFaults());

describe('faults (all off by default)', () => {
  it('defaults: nothing injected except the past legacy sunset', async () => {
    const faults = await admin(sb, 'GET', '/faults');
    expect(faults.json).toMatchObject({
      latencyMs: 0,
      rateLimitBurst: 0,
      serverErrorOnNth: 0,
      malformedJson: 0,
      repeatingCursor: false,
      endlessHasMore: false,
      tamperedSkillDigest: false,
      legacySunsetPast: true,
    });
  });

  it('latencyMs delays API answers', async () => {
    sb.setFaults({ latencyMs: 250 });
    const started = Date.now();
    expect((await api(sb, '/account')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
  });

  it.each([
    ['seconds', (h: Headers) => expect(h.get('retry-after')).toBe('3')],
    [
      'http-date',
      (h: Headers) => expect(Date.parse(h.get('retry-after')!) - Date.now()).toBeGreaterThan(1000),
    ],
    ['reset-only', (h: Headers) => expect(h.get('retry-after')).toBeNull()],
  ] as const)('rateLimitBurst answers the next N with 429 (%s)', async (mode, check) => {
    await admin(sb, 'POST', '/faults', { rateLimitBurst: 2, retryAfterMode: mode, retryAfterSeconds: 3 });
    for (let i = 0; i < 2; i++) {
      const limited = await api(sb, '/account');
      expectProblem(limited, 429, 'rate_limited');
      expect(limited.headers.get('ratelimit-reset')).toBe('3');
      expect(limited.headers.get('ratelimit-policy')).toBeTruthy();
      check(limited.headers);
    }
    expect((await api(sb, '/account')).status).toBe(200);
  });

  it('serverErrorOnNth: exactly the Nth API request gets 503', async () => {
    sb.setFaults({ serverErrorOnNth: 3 });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await api(sb, '/account')).status);
    expect(statuses).toEqual([200, 200, 503, 200, 200]);
  });

  it('serverErrorEvery flaps', async () => {
    sb.setFaults({ serverErrorEvery: 2 });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await api(sb, '/account')).status);
    expect(statuses).toEqual([200, 503, 200, 503, 200, 503]);
  });

  it('serverErrorAfterCommit: the write commits, answers 500, and the retry replays it', async () => {
    sb.setFaults({ serverErrorAfterCommit: 1 });
    const before = sb.db.playbookCount();
    const key = newKey();
    const body = { title: 'Retry me', thesis: 'Idempotent retries are safe.', visibility: 'private' };
    const first = await api(sb, '/playbooks', { body, idempotencyKey: key });
    expectProblem(first, 500);
    expect(sb.db.playbookCount()).toBe(before + 1);
    const retry = await api(sb, '/playbooks', { body, idempotencyKey: key });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.json.title).toBe('Retry me');
    expect(sb.db.playbookCount()).toBe(before + 1);
  });

  it('malformedJson truncates the next N JSON answers', async () => {
    sb.setFaults({ malformedJson: 1 });
    const broken = await api(sb, '/account');
    expect(broken.status).toBe(200);
    expect(() => JSON.parse(broken.text) as unknown).toThrow();
    expect((await api(sb, '/account')).json.name).toBe('Demo Investor');
  });

  it('wrongContentType labels the next N JSON answers text/html', async () => {
    sb.setFaults({ wrongContentType: 1 });
    expect((await api(sb, '/account')).headers.get('content-type')).toContain('text/html');
    expect((await api(sb, '/account')).headers.get('content-type')).toBe('application/json');
  });

  it('oversizedResponse pads the next list answer past 5 MB', async () => {
    sb.setFaults({ oversizedResponse: 1 });
    const big = await api(sb, '/playbooks?limit=2');
    expect(big.text.length).toBeGreaterThan(5 * 1024 * 1024);
    expect((await api(sb, '/playbooks?limit=2')).text.length).toBeLessThan(100_000);
  });

  it('repeatingCursor: list pages always return the same next_cursor', async () => {
    sb.setFaults({ repeatingCursor: true });
    const first = await api(sb, '/playbooks?limit=5');
    const second = await api(sb, `/playbooks?limit=5&cursor=${first.json.next_cursor}`);
    expect(second.json.has_more).toBe(true);
    expect(second.json.next_cursor).toBe(first.json.next_cursor);
  });

  it('endlessHasMore: lists always say has_more with a fresh cursor, even past the end', async () => {
    sb.setFaults({ endlessHasMore: true });
    const seen = new Set<string>();
    let cursor = '';
    for (let i = 0; i < 5; i++) {
      const page = await api(sb, `/playbooks?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.json.has_more).toBe(true);
      expect(seen.has(page.json.next_cursor)).toBe(false);
      seen.add(page.json.next_cursor);
      cursor = page.json.next_cursor;
    }
  });

  it('legacy sunset can move to the future, to an explicit date, and deprecate listPlaybooks', async () => {
    sb.setFaults({ legacySunsetPast: false });
    const future = await api(sb, '/legacy/playbooks?limit=1');
    expect(Date.parse(future.headers.get('sunset')!)).toBeGreaterThan(Date.now());
    const doc = await (await fetch(`${sb.baseUrl}/openapi.json`)).json();
    expect(Date.parse(doc.paths['/legacy/playbooks'].get['x-sunset'])).toBeGreaterThan(Date.now());
    sb.setFaults({ legacySunsetAt: '2030-01-15', deprecateListPlaybooks: true });
    const list = await api(sb, '/playbooks?limit=1');
    expect(list.headers.get('sunset')).toBe(new Date('2030-01-15T00:00:00Z').toUTCString());
    const doc2 = await (await fetch(`${sb.baseUrl}/openapi.json`)).json();
    expect(doc2.paths['/playbooks'].get).toMatchObject({
      deprecated: true,
      'x-sunset': '2030-01-15',
      'x-replaced-by': 'graphql',
    });
  });

  it('resetConnection destroys the socket without an answer', async () => {
    sb.setFaults({ resetConnection: 1 });
    await expect(api(sb, '/account')).rejects.toThrow();
    expect((await api(sb, '/account')).status).toBe(200);
  });

  it('timeoutMs hangs the next request past a client timeout', async () => {
    sb.setFaults({ timeoutMs: 3000 });
    const outcome = await new Promise<string>((resolve) => {
      const req = request(
        `${sb.apiUrl}/account`,
        { headers: { Authorization: `Bearer ${sb.demoKey}` }, timeout: 300 },
        () => resolve('answered'),
      );
      req.on('timeout', () => {
        req.destroy();
        resolve('timed out');
      });
      req.on('error', () => resolve('timed out'));
      req.end();
    });
    expect(outcome).toBe('timed out');
    sb.resetFaults();
    expect((await api(sb, '/account')).status).toBe(200);
  });

  it('faults apply to API requests only: discovery and admin stay clean', async () => {
    sb.setFaults({ serverErrorOnNth: 1, malformedJson: 5 });
    expect((await fetch(`${sb.baseUrl}/openapi.json`)).status).toBe(200);
    const doc = await (await fetch(`${sb.baseUrl}/agent.json`)).json();
    expect(doc.name).toBeTruthy();
    expect((await admin(sb, 'GET', '/faults')).status).toBe(200);
    expect((await api(sb, '/account')).status).toBe(503);
  });

  it('admin POST /faults rejects unknown fields and bad values with 400', async () => {
    expect((await admin(sb, 'POST', '/faults', { bogus: 1 })).status).toBe(400);
    expect((await admin(sb, 'POST', '/faults', { latencyMs: -5 })).status).toBe(400);
    expect((await admin(sb, 'DELETE', '/faults')).json.latencyMs).toBe(0);
  });
});

describe('token bucket', () => {
  it('limits per key with Retry-After and RateLimit-Reset; other keys are unaffected', async () => {
    const small = await startTestSandbox({ rateQuota: 3, rateWindowSeconds: 60 });
    try {
      const remaining = [];
      for (let i = 0; i < 3; i++) remaining.push((await api(small, '/account')).headers.get('ratelimit'));
      expect(remaining.map((r) => /r=(\d+)/.exec(r!)![1])).toEqual(['2', '1', '0']);
      const limited = await api(small, '/account');
      expectProblem(limited, 429, 'rate_limited');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(limited.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
      expect((await api(small, '/account', { key: small.otherUserKey })).status).toBe(200);
      expect((await admin(small, 'GET', '/faults')).status).toBe(200);
    } finally {
      await small.close();
    }
  });
});
