import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/server';
import {
  admin,
  api,
  createPlaybook,
  expectProblem,
  newKey,
  startTestSandbox,
  walkRest,
  type Json,
} from './helpers';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ seed: 45 });
});
afterAll(() => sb.close());

const otherPlaybooks = () => sb.db.listPlaybooks({ ownerId: 'usr_ada' }, null, 100).rows;
const playbookCount = () => sb.db.playbookCount();

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

describe('lists and pagination', () => {
  it('walks every playbook once, newest first, with opaque cursors', async () => {
    const ids = await walkRest(sb, '/playbooks', 7);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(sb.db.playbookCount('usr_demo'));
    const first = await api(sb, '/playbooks');
    expect(first.json.data).toHaveLength(20);
    expect(first.json.next_cursor).toMatch(/^[\w-]+$/);
    const stamps = first.json.data.map((p: Json) => p.created_at);
    expect([...stamps].sort().reverse()).toEqual(stamps);
  });

  it('filters by visibility, and the filter holds across pages', async () => {
    const ids = await walkRest(sb, '/playbooks?visibility=public', 5);
    expect(ids.length).toBeGreaterThan(5);
    for (const id of ids) expect(sb.db.getPlaybook(id)!.visibility).toBe('public');
  });

  it('listPublicPlaybooks needs no key and shows only public playbooks from every user', async () => {
    const page = await api(sb, '/public/playbooks?limit=100', { key: null });
    expect(page.status).toBe(200);
    const owners = new Set(page.json.data.map((p: Json) => p.owner.id));
    expect(owners).toEqual(new Set(['usr_demo', 'usr_ada']));
    for (const p of page.json.data) expect(p.visibility).toBe('public');
  });

  it.each([
    ['limit=0', 'invalid_limit'],
    ['limit=101', 'invalid_limit'],
    ['limit=abc', 'invalid_limit'],
    ['limit=-1', 'invalid_limit'],
    ['cursor=not-a-cursor!', 'invalid_cursor'],
    ['cursor=', 'invalid_cursor'],
    [
      `cursor=${Buffer.from('{"v":1,"k":"playbooks","f":"usr_ada:*","s":5}').toString('base64url')}`,
      'invalid_cursor',
    ],
    [`cursor=${Buffer.from('{"v":2}').toString('base64url')}`, 'invalid_cursor'],
    [`cursor=${Buffer.from('[]').toString('base64url')}`, 'invalid_cursor'],
    ['visibility=secret', 'invalid_visibility'],
    ['sort=title', 'unknown_parameter'],
  ])('?%s → 400 problem', async (query, code) => {
    expectProblem(await api(sb, `/playbooks?${query}`), 400, code);
  });

  it('a cursor from one filter is refused by another', async () => {
    const page = await api(sb, '/playbooks?visibility=public&limit=2');
    expectProblem(
      await api(sb, `/playbooks?visibility=private&cursor=${page.json.next_cursor}`),
      400,
      'invalid_cursor',
    );
  });
});

describe('visibility', () => {
  it("another user's private playbook is a 404, never data; their public one is readable", async () => {
    const privateOne = otherPlaybooks().find((p) => p.visibility === 'private')!;
    const publicOne = otherPlaybooks().find((p) => p.visibility === 'public')!;
    const hidden = await api(sb, `/playbooks/${privateOne.id}`);
    expectProblem(hidden, 404, 'not_found');
    expect(hidden.text).not.toContain(privateOne.title);
    expect((await api(sb, `/playbooks/${publicOne.id}`)).json.title).toBe(publicOne.title);
    expect((await api(sb, `/playbooks/${privateOne.id}`, { key: sb.otherUserKey })).status).toBe(200);
  });

  it('batch reads answer in request order with per-item status; hidden equals missing', async () => {
    const mine = (await api(sb, '/playbooks?limit=2')).json.data;
    const privateOne = otherPlaybooks().find((p) => p.visibility === 'private')!;
    const ids = [mine[1].id, privateOne.id, 'pb_missing', mine[0].id, mine[1].id];
    const result = await api(sb, '/playbooks/batch-get', { body: { ids } });
    expect(result.status).toBe(200);
    expect(result.json.results.map((r: Json) => [r.id, r.status])).toEqual([
      [mine[1].id, 200],
      [privateOne.id, 404],
      ['pb_missing', 404],
      [mine[0].id, 200],
      [mine[1].id, 200],
    ]);
    expect(result.json.results[1].error).toMatchObject({ status: 404, code: 'not_found' });
    expect(JSON.stringify(result.json.results[1])).toEqual(
      JSON.stringify(result.json.results[2]).replaceAll('pb_missing', privateOne.id),
    );
    expect(result.text).not.toContain(privateOne.title);
  });

  it.each([
    [{ ids: [] }],
    [{ ids: Array.from({ length: 51 }, (_, i) => `pb_${i}`) }],
    [{ ids: ['a'], extra: true }],
    [{ ids: 'pb_1' }],
  ])('batch %j → 400', async (body) => {
    expectProblem(await api(sb, '/playbooks/batch-get', { body }), 400, 'validation_failed');
  });

  it("writes to another user's playbooks: private → 404, public → 403", async () => {
    const privateOne = otherPlaybooks().find((p) => p.visibility === 'private')!;
    const publicOne = otherPlaybooks().find((p) => p.visibility === 'public')!;
    expectProblem(
      await api(sb, `/playbooks/${privateOne.id}`, {
        method: 'PATCH',
        body: { title: 'x' },
        idempotencyKey: newKey(),
        headers: { 'If-Match': privateOne.etag },
      }),
      404,
    );
    expectProblem(
      await api(sb, `/playbooks/${publicOne.id}`, {
        method: 'PATCH',
        body: { title: 'x' },
        idempotencyKey: newKey(),
        headers: { 'If-Match': publicOne.etag },
      }),
      403,
      'not_owner',
    );
    expect(sb.db.getPlaybook(publicOne.id)!.title).toBe(publicOne.title);
  });
});

describe('writes and idempotency', () => {
  it('createPlaybook → 201 draft with ETag, event appended', async () => {
    const key = newKey();
    const body = {
      title: 'Water utilities',
      thesis: 'Regulated returns on pipe replacement.',
      visibility: 'private',
      tickers: ['AWK'],
      source: { url: 'https://example.com/a', title: 'A', excerpt: 'B' },
    };
    const result = await api(sb, '/playbooks', { body, idempotencyKey: key });
    expect(result.status).toBe(201);
    expect(result.json).toMatchObject({
      title: 'Water utilities',
      status: 'draft',
      visibility: 'private',
      tickers: ['AWK'],
      owner: { id: 'usr_demo', name: 'Demo Investor' },
      source: { url: 'https://example.com/a', title: 'A' },
    });
    expect(result.headers.get('etag')).toBe(result.json.etag);
    expect(result.json.etag).toMatch(/^"[^"]+"$/);
    const events = await api(sb, '/events?limit=100');
    expect(
      events.json.data.some((e: Json) => e.type === 'playbook.created' && e.playbook_id === result.json.id),
    ).toBe(true);
  });

  it('same key and JSON-equal body replays the committed answer; quoted keys are accepted', async () => {
    const key = newKey();
    const before = playbookCount();
    const first = await api(sb, '/playbooks', {
      body: { title: 'T', thesis: 'Th', visibility: 'private' },
      idempotencyKey: key,
    });
    const replay = await api(sb, '/playbooks', {
      rawBody: '{"visibility":"private","thesis":"Th","title":"T"}',
      idempotencyKey: `"${key}"`,
    });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(replay.json).toEqual(first.json);
    expect(playbookCount()).toBe(before + 1);
  });

  it('same key, other body → 422; key scoped to the user', async () => {
    const key = newKey();
    await api(sb, '/playbooks', {
      body: { title: 'A', thesis: 'B', visibility: 'private' },
      idempotencyKey: key,
    });
    expectProblem(
      await api(sb, '/playbooks', {
        body: { title: 'A2', thesis: 'B', visibility: 'private' },
        idempotencyKey: key,
      }),
      422,
      'idempotency_key_reused',
    );
    const other = await api(sb, '/playbooks', {
      key: sb.otherUserKey,
      body: { title: 'A2', thesis: 'B', visibility: 'private' },
      idempotencyKey: key,
    });
    expect(other.status).toBe(201);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
  });

  it('same key still in flight → 409', async () => {
    sb.setFaults({ writeHoldMs: 400 });
    try {
      const key = newKey();
      const body = { title: 'Slow', thesis: 'Held in flight', visibility: 'private' };
      const first = api(sb, '/playbooks', { body, idempotencyKey: key });
      await new Promise((r) => setTimeout(r, 100));
      const second = await api(sb, '/playbooks', { body, idempotencyKey: key });
      expectProblem(second, 409, 'idempotency_in_flight');
      expect((await first).status).toBe(201);
    } finally {
      sb.resetFaults();
    }
  });

  it.each([
    ['no Idempotency-Key', undefined, 'idempotency_key_required'],
    ['a non-UUID key', 'not-a-uuid', 'invalid_idempotency_key'],
  ])('%s → 400 and nothing written', async (_name, key, code) => {
    const before = playbookCount();
    expectProblem(
      await api(sb, '/playbooks', {
        body: { title: 'A', thesis: 'B', visibility: 'private' },
        idempotencyKey: key,
      }),
      400,
      code,
    );
    expect(playbookCount()).toBe(before);
  });

  const huge = JSON.stringify({ title: 'A', thesis: 'x'.repeat(70 * 1024), visibility: 'private' });
  it.each([
    ['bad JSON', '{"title": "A",', 'invalid_json'],
    ['oversized body', huge, 'body_too_large'],
    [
      'unknown field',
      JSON.stringify({ title: 'A', thesis: 'B', visibility: 'private', admin: true }),
      'validation_failed',
    ],
    ['wrong type', JSON.stringify({ title: 5, thesis: 'B', visibility: 'private' }), 'validation_failed'],
    [
      'bad visibility',
      JSON.stringify({ title: 'A', thesis: 'B', visibility: 'secret' }),
      'validation_failed',
    ],
    ['empty title', JSON.stringify({ title: '  ', thesis: 'B', visibility: 'private' }), 'validation_failed'],
    [
      'hostile ticker',
      JSON.stringify({ title: 'A', thesis: 'B', visibility: 'private', tickers: ['<script>'] }),
      'validation_failed',
    ],
    [
      'javascript: source',
      JSON.stringify({
        title: 'A',
        thesis: 'B',
        visibility: 'private',
        source: { url: 'javascript:alert(1)', title: 'x', excerpt: 'y' },
      }),
      'validation_failed',
    ],
    ['array body', '[]', 'validation_failed'],
    ['empty body', '', 'body_required'],
  ])('%s → 400 problem with errors[], nothing changed, key not stored', async (_name, rawBody, code) => {
    const before = playbookCount();
    const eventsBefore = sb.db.latestEventSeq();
    const key = newKey();
    const result = await api(sb, '/playbooks', { rawBody, idempotencyKey: key });
    expectProblem(result, 400, code);
    expect(result.json.errors.length).toBeGreaterThan(0);
    expect(playbookCount()).toBe(before);
    expect(sb.db.latestEventSeq()).toBe(eventsBefore);
    // A rejected request is not stored: the same key then works with a valid body.
    expect(
      (
        await api(sb, '/playbooks', {
          body: { title: 'OK', thesis: 'Valid', visibility: 'private' },
          idempotencyKey: key,
        })
      ).status,
    ).toBe(201);
  });

  it('validation errors name the offending field', async () => {
    const result = await api(sb, '/playbooks', {
      body: { title: 'A', thesis: 'B', visibility: 'private', admin: true },
      idempotencyKey: newKey(),
    });
    expect(result.json.errors).toEqual([{ path: 'admin', message: 'unknown field' }]);
  });

  it('non-JSON content type → 415', async () => {
    expectProblem(
      await api(sb, '/playbooks', {
        rawBody: 'title=A',
        headers: { 'Content-Type': 'text/plain' },
        idempotencyKey: newKey(),
      }),
      415,
      'unsupported_media_type',
    );
  });

  it('updatePlaybook: If-Match required (428), stale etag 412, fresh etag 200 with new etag', async () => {
    const created = await createPlaybook(sb);
    const path = `/playbooks/${created.id}`;
    expectProblem(
      await api(sb, path, { method: 'PATCH', body: { title: 'New' }, idempotencyKey: newKey() }),
      428,
      'if_match_required',
    );
    const ok = await api(sb, path, {
      method: 'PATCH',
      body: { title: 'New' },
      idempotencyKey: newKey(),
      headers: { 'If-Match': created.etag },
    });
    expect(ok.status).toBe(200);
    expect(ok.json.title).toBe('New');
    expect(ok.json.etag).not.toBe(created.etag);
    expect(ok.headers.get('etag')).toBe(ok.json.etag);
    const stale = await api(sb, path, {
      method: 'PATCH',
      body: { title: 'Newer' },
      idempotencyKey: newKey(),
      headers: { 'If-Match': created.etag },
    });
    expectProblem(stale, 412, 'etag_mismatch');
    expect(sb.db.getPlaybook(created.id)!.title).toBe('New');
    expectProblem(
      await api(sb, path, {
        method: 'PATCH',
        body: {},
        idempotencyKey: newKey(),
        headers: { 'If-Match': ok.json.etag },
      }),
      400,
      'validation_failed',
    );
    const got = await api(sb, path, { headers: { 'If-None-Match': ok.json.etag } });
    expect(got.status).toBe(304);
  });

  it('activate needs a linked brokerage (403 brokerage_not_linked); the link page links it', async () => {
    const created = await createPlaybook(sb);
    const activate = () =>
      api(sb, `/playbooks/${created.id}/activate`, { method: 'POST', idempotencyKey: newKey() });
    const refused = await activate();
    expectProblem(refused, 403, 'brokerage_not_linked');
    expect(sb.db.getPlaybook(created.id)!.status).toBe('draft');
    const link = await api(sb, '/brokerage/links', {
      body: { provider: 'sandbox-broker' },
      idempotencyKey: newKey(),
    });
    expect(link.status).toBe(201);
    expect(link.json.link_url.startsWith(`${sb.baseUrl}/`)).toBe(true);
    const page = await fetch(link.json.link_url);
    expect(page.status).toBe(200);
    expect((await api(sb, '/account')).json.brokerage_linked).toBe(true);
    const active = await activate();
    expect(active.status).toBe(200);
    expect(active.json.status).toBe('active');
    const paused = await api(sb, `/playbooks/${created.id}/pause`, {
      method: 'POST',
      idempotencyKey: newKey(),
      body: {},
    });
    expect(paused.json.status).toBe('paused');
    const types = (await api(sb, '/events?limit=100')).json.data
      .filter((e: Json) => e.playbook_id === created.id)
      .map((e: Json) => e.type);
    expect(types).toEqual(['playbook.created', 'execution.started', 'execution.stopped']);
    sb.db.setBrokerageLinked('usr_demo', false);
  });

  it('createCheckoutSession returns a sandbox checkout page', async () => {
    const result = await api(sb, '/billing/checkout-sessions', {
      body: { plan: 'team' },
      idempotencyKey: newKey(),
    });
    expect(result.status).toBe(201);
    const page = await fetch(result.json.checkout_url);
    expect(await page.text()).toContain('Team');
    expectProblem(
      await api(sb, '/billing/checkout-sessions', { body: { plan: 'platinum' }, idempotencyKey: newKey() }),
      400,
    );
    sb.db.setPlan('usr_demo', 'pro');
  });

  it('a user without a permission gets 403 permission_denied', async () => {
    const mine = otherPlaybooks()[0];
    expectProblem(
      await api(sb, `/playbooks/${mine.id}/backtests`, {
        key: sb.otherUserKey,
        body: { start: '2020-01-01', end: '2024-12-31' },
        idempotencyKey: newKey(),
      }),
      403,
      'permission_denied',
    );
  });

  it('runBacktest → 202 queued, then a backtest.completed event with a summary', async () => {
    const created = await createPlaybook(sb);
    const queued = await api(sb, `/playbooks/${created.id}/backtests`, {
      body: { start: '2019-01-01', end: '2024-12-31', benchmark: 'SPY' },
      idempotencyKey: newKey(),
    });
    expect(queued.status).toBe(202);
    expect(queued.json).toEqual({
      id: expect.stringMatching(/^bt_/),
      playbook_id: created.id,
      status: 'queued',
    });
    await expect
      .poll(
        async () =>
          (await api(sb, '/events?limit=100')).json.data.find(
            (e: Json) => e.type === 'backtest.completed' && e.data.backtest_id === queued.json.id,
          ),
        { timeout: 3000 },
      )
      .toMatchObject({
        playbook_id: created.id,
        data: {
          backtest_id: queued.json.id,
          total_return: expect.any(Number),
          benchmark_return: expect.any(Number),
          max_drawdown: expect.any(Number),
          sharpe: expect.any(Number),
        },
      });
    expectProblem(
      await api(sb, `/playbooks/${created.id}/backtests`, {
        body: { start: '2024-12-31', end: '2019-01-01' },
        idempotencyKey: newKey(),
      }),
      400,
    );
    expectProblem(
      await api(sb, `/playbooks/${created.id}/backtests`, {
        body: { start: '2024-02-30x', end: '2025-01-01' },
        idempotencyKey: newKey(),
      }),
      400,
    );
  });
});

describe('events', () => {
  it('listEvents polls after a cursor, always returns next_cursor, has_more false when caught up', async () => {
    let cursor: string | null = null;
    const seen: string[] = [];
    for (;;) {
      const page: Json = await api(sb, `/events?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.json.next_cursor).toEqual(expect.any(String));
      seen.push(...page.json.data.map((e: Json) => e.id));
      cursor = page.json.next_cursor;
      if (!page.json.has_more) break;
    }
    expect(new Set(seen).size).toBe(seen.length);
    const caughtUp = await api(sb, `/events?cursor=${cursor}`);
    expect(caughtUp.json).toMatchObject({ data: [], has_more: false, next_cursor: cursor });
    const created = await createPlaybook(sb);
    const next = await api(sb, `/events?cursor=${cursor}`);
    expect(next.json.data.map((e: Json) => [e.type, e.playbook_id])).toEqual([
      ['playbook.created', created.id],
    ]);
    // Events are scoped to their owner.
    const theirs = await api(sb, '/events?limit=100', { key: sb.otherUserKey });
    expect(theirs.json.data.some((e: Json) => e.playbook_id === created.id)).toBe(false);
  });

  async function readSse(headers: Record<string, string>, count: number, trigger?: () => Promise<void>) {
    const controller = new AbortController();
    const response = await fetch(`${sb.apiUrl}/events/stream`, {
      headers: { Authorization: `Bearer ${sb.demoKey}`, Accept: 'text/event-stream', ...headers },
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events: { event?: string; id?: string; data: string }[] = [];
    const parser = createParser({ onEvent: (e) => events.push(e) });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    if (trigger) await trigger();
    while (events.length < count) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
    controller.abort();
    return events;
  }

  it('streamEvents sends new events with event: type and id:, and resumes after Last-Event-ID', async () => {
    let created: Json;
    const live = await readSse({}, 1, async () => {
      created = await createPlaybook(sb);
    });
    expect(live[0].event).toBe('playbook.created');
    const data = JSON.parse(live[0].data);
    expect(data.playbook_id).toBe(created.id);
    expect(live[0].id).toBe(data.id);
    const later = await createPlaybook(sb);
    const resumed = await readSse({ 'Last-Event-ID': live[0].id! }, 1);
    expect(JSON.parse(resumed[0].data).playbook_id).toBe(later.id);
    const polled = await api(sb, '/events?limit=100');
    expect(polled.json.data.map((e: Json) => e.id)).toContain(resumed[0].id);
  });

  it('admin can emit a synthetic event that reaches the owner', async () => {
    const created = await createPlaybook(sb);
    const emitted = await admin(sb, 'POST', '/events', {
      playbook_id: created.id,
      type: 'backtest.completed',
      data: { total_return: 12.5 },
    });
    expect(emitted.status).toBe(201);
    const resumedFrom = `evt_${Number(emitted.json.id.slice(4)) - 1}`;
    const events = await readSse({ 'Last-Event-ID': resumedFrom }, 1);
    expect(JSON.parse(events[0].data)).toMatchObject({
      type: 'backtest.completed',
      data: { total_return: 12.5 },
    });
  });

  it('a Last-Event-ID this service never issued is a 400', async () => {
    expectProblem(
      await api(sb, '/events/stream', { headers: { 'Last-Event-ID': 'nonsense' } }),
      400,
      'invalid_last_event_id',
    );
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
