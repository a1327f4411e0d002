import { compileErrors, validate } from '@readme/openapi-parser';
import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECT_SPECS, routingPath } from '../../sandbox/dialect';
import type { Sandbox } from '../../sandbox/server';
import { api, expectProblem, newKey, startTestSandbox, type Json } from './helpers';

/** Dialect c: the contract in AIP-136 style, writes as custom methods (`/strategies/{name}:goLive`). */
let sb: Sandbox;
let doc: Json;
beforeAll(async () => {
  sb = await startTestSandbox({ dialect: 'c', seed: 30 });
  doc = await (await fetch(`${sb.baseUrl}/openapi.json`)).json();
});
afterAll(() => sb.close());

function routes(): Map<string, { method: string; path: string; op: Json }> {
  const found = new Map<string, { method: string; path: string; op: Json }>();
  for (const [path, item] of Object.entries<Json>(doc.paths))
    for (const [method, op] of Object.entries<Json>(item)) found.set(op.operationId, { method, path, op });
  return found;
}

const path = (id: string, playbookId = '') => routes().get(id)!.path.replace('{name}', playbookId);

describe('dialect c (custom methods)', () => {
  it('serves a valid OpenAPI document with custom-method writes and a collection batch read', async () => {
    const result = await validate(structuredClone(doc));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(sb.dialect).toBe('c');
    expect(doc.servers[0].url).toBe(`${sb.baseUrl}/api/v3`);
    for (const [id, { path }] of routes()) expect(path, id).toBe(DIALECT_SPECS.c.paths[id as 'getStatus']);
    expect(path('activatePlaybook')).toBe('/strategies/:goLive');
    expect(path('batchGetPlaybooks')).toBe('/strategies:batchGet');
    const params = routes()
      .get('pausePlaybook')!
      .op.parameters.filter((p: Json) => p.in === 'path');
    expect(params.map((p: Json) => p.name)).toEqual(['name']);
  });

  it.each([
    ['/api/v3/strategies/pb_1:goLive', '/api/v3/strategies/pb_1/~goLive'],
    ['/api/v3/strategies:batchGet', '/api/v3/strategies/~batchGet'],
    ['/api/v3/strategies/pb%3A1', '/api/v3/strategies/pb%3A1'],
    ['/api/v3/strategies/pb_1', '/api/v3/strategies/pb_1'],
  ])('routes %s as %s', (sent, routed) => expect(routingPath(sent)).toBe(routed));

  it('every write and read works at its custom-method path, and the log keeps the path sent', async () => {
    sb.clearRequests();
    const created = await api(sb, path('createPlaybook'), {
      idempotencyKey: newKey(),
      body: { title: 'Dialect c', thesis: 'Strategies, by custom method.', visibility: 'private' },
    });
    expect(created.status).toBe(201);
    const id = created.json.id;
    expect(created.headers.get('location')).toBe(`${sb.apiUrl}/strategies/${id}`);
    const read = await api(sb, path('getPlaybook', id));
    expect(read.json.title).toBe('Dialect c');
    const backtest = await api(sb, path('runBacktest', id), {
      idempotencyKey: newKey(),
      body: { start: '2020-01-01', end: '2021-01-01' },
    });
    expect(backtest.status).toBe(202);
    expect((await api(sb, path('listBacktests', id))).json.data[0].id).toBe(backtest.json.id);
    const paused = await api(sb, path('pausePlaybook', id), { idempotencyKey: newKey(), body: {} });
    expect(paused.json.status).toBe('paused');
    expectProblem(
      await api(sb, path('activatePlaybook', id), { idempotencyKey: newKey(), body: {} }),
      403,
      'brokerage_not_linked',
    );
    // A verb the document does not declare is no operation, even with a known resource name.
    expectProblem(
      await api(sb, `/strategies/${id}:delete`, { idempotencyKey: newKey(), body: {} }),
      404,
      'no_such_operation',
    );
    const batch = await api(sb, path('batchGetPlaybooks'), { body: { ids: [id, 'missing'] } });
    expect(batch.json.results.map((r: Json) => r.status)).toEqual([200, 404]);
    expect((await api(sb, path('getAccount'))).json.name).toBe('Demo Investor');
    expect((await api(sb, path('getStatus'))).json.status).toBe('operational');
    const sent = sb.requests().map((r) => `${r.method} ${r.path}`);
    expect(sent).toContain(`POST /api/v3/strategies/${id}:halt`);
    expect(sent).toContain('POST /api/v3/strategies:batchGet');
    expect(sent.filter((r) => r.includes('~'))).toEqual([]);
  });

  it('lists page by the declared bounds (1–50, default 15)', async () => {
    const first = await api(sb, path('listPlaybooks'));
    expect(first.json.data).toHaveLength(15);
    expectProblem(await api(sb, `${path('listPlaybooks')}?limit=51`), 400, 'invalid_limit');
  });

  it('streams events at its custom-method path', async () => {
    const controller = new AbortController();
    const response = await fetch(`${sb.apiUrl}${path('streamEvents')}`, {
      headers: { Authorization: `Bearer ${sb.demoKey}` },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const events: { data: string }[] = [];
    const parser = createParser({
      onEvent: (e) => {
        if (e.event === 'playbook.created') events.push(e);
      },
    });
    const reader = response.body!.getReader();
    const created = await api(sb, path('createPlaybook'), {
      idempotencyKey: newKey(),
      body: { title: 'Streamed', thesis: 'x', visibility: 'private' },
    });
    while (events.length < 1) {
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(new TextDecoder().decode(value));
    }
    controller.abort();
    expect(JSON.parse(events[0].data).playbook_id).toBe(created.json.id);
  });
});
