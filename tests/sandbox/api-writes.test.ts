/** The REST API's writes: creation, idempotency keys, validation, If-Match, permissions and runs. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/server';
import { api, createPlaybook, expectProblem, newKey, startTestSandbox, type Json } from './helpers';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ seed: 45 });
});
afterAll(() => sb.close());

const otherPlaybooks = () => sb.db.listPlaybooks({ ownerId: 'usr_ada' }, null, 100).rows;
const playbookCount = () => sb.db.playbookCount();

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
