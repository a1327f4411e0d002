/** The REST API's door: who may call it (keys, admin token) and the headers every answer carries. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/server';
import { admin, api, expectProblem, startTestSandbox } from './helpers';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ seed: 45 });
});
afterAll(() => sb.close());

describe('authentication', () => {
  it.each([
    ['no key', null, 'missing_api_key'],
    ['unknown key', 'iak_not-a-real-key', 'invalid_api_key'],
  ])('%s → 401 problem naming /apikey', async (_name, key, code) => {
    const result = await api(sb, '/account', { key });
    expectProblem(result, 401, code);
    expect(result.json.detail).toContain('/apikey');
  });

  it('getAccount returns the demo user', async () => {
    const result = await api(sb, '/account');
    expect(result.json).toEqual({
      id: 'usr_demo',
      name: 'Demo Investor',
      email: 'demo@investing-agent.test',
      plan: 'pro',
      permissions: [
        'playbooks:read',
        'playbooks:write',
        'backtests:run',
        'execution:manage',
        'billing:manage',
      ],
      brokerage_linked: false,
    });
  });

  it('a revoked key gets 401 afterwards', async () => {
    const key = 'iak_revoke_me_0123456789';
    sb.db.addApiKey('usr_demo', key, 'to revoke');
    expect((await api(sb, '/account', { key })).status).toBe(200);
    expect((await admin(sb, 'POST', '/keys/revoke', { key })).status).toBe(200);
    expectProblem(await api(sb, '/account', { key }), 401, 'invalid_api_key');
  });

  it('admin routes refuse the API key and a wrong token', async () => {
    expect((await admin(sb, 'GET', '/faults', undefined, sb.demoKey)).status).toBe(401);
    expect((await admin(sb, 'GET', '/faults', undefined, 'x'.repeat(32))).status).toBe(401);
    expect((await admin(sb, 'GET', '/faults')).status).toBe(200);
  });
});

describe('headers the contract requires', () => {
  it('every API response carries RateLimit and RateLimit-Policy, errors included', async () => {
    for (const result of [
      await api(sb, '/account'),
      await api(sb, '/account', { key: null }),
      await api(sb, '/nope'),
    ]) {
      expect(result.headers.get('ratelimit-policy')).toBe('"default";q=120;w=60');
      expect(result.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=\d+$/);
    }
  });

  it('answers CORS preflights from an extension origin and exposes the contract headers', async () => {
    const response = await fetch(`${sb.apiUrl}/playbooks`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'chrome-extension://abcdefghijklmnop',
        'Access-Control-Request-Method': 'PATCH',
        'Access-Control-Request-Headers': 'authorization,if-match,idempotency-key,content-type',
      },
    });
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get('access-control-allow-origin')).toBe('chrome-extension://abcdefghijklmnop');
    const allowed = response.headers.get('access-control-allow-headers')!.toLowerCase();
    for (const h of [
      'authorization',
      'content-type',
      'if-match',
      'if-none-match',
      'idempotency-key',
      'last-event-id',
      'accept',
    ])
      expect(allowed).toContain(h);
    expect(response.headers.get('access-control-allow-methods')).toContain('PATCH');
    const actual = await fetch(`${sb.apiUrl}/account`, {
      headers: { Origin: 'chrome-extension://abcdefghijklmnop', Authorization: `Bearer ${sb.demoKey}` },
    });
    const exposed = actual.headers.get('access-control-expose-headers')!.toLowerCase();
    for (const h of [
      'etag',
      'retry-after',
      'ratelimit',
      'ratelimit-policy',
      'ratelimit-reset',
      'idempotent-replayed',
      'deprecation',
      'sunset',
      'link',
    ])
      expect(exposed).toContain(h);
    expect(sb.requests().some((r) => r.method === 'OPTIONS' && r.path === '/api/v1/playbooks')).toBe(true);
  });

  it('listPlaybooksLegacy carries Deprecation, Sunset and a successor Link', async () => {
    const result = await api(sb, '/legacy/playbooks?limit=2');
    expect(result.status).toBe(200);
    expect(result.headers.get('deprecation')).toMatch(/^@\d+$/);
    const sunset = Date.parse(result.headers.get('sunset')!);
    expect(sunset).toBeLessThan(Date.now());
    expect(result.headers.get('link')).toMatch(/^<[^>]+#listPlaybooks>; rel="successor-version"$/);
    expect((await api(sb, '/playbooks?limit=2')).headers.get('deprecation')).toBeNull();
  });

  it('records every request with full headers, so tests can search for a key', async () => {
    sb.clearRequests();
    await api(sb, '/account');
    await fetch(`${sb.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    const recorded = sb.requests();
    expect(recorded.map((r) => r.path)).toEqual(['/api/v1/account', '/mcp']);
    expect(recorded[0].headers.authorization).toBe(`Bearer ${sb.demoKey}`);
    expect(recorded[1].body).toBe('{}');
    const viaAdmin = await admin(sb, 'GET', '/requests');
    expect(viaAdmin.json).toHaveLength(2);
  });
});
