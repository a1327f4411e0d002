import { compileErrors, validate } from '@readme/openapi-parser';
import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECT_SPECS } from '../../sandbox/dialect';
import type { Sandbox } from '../../sandbox/server';
import { api, expectProblem, newKey, startTestSandbox, walkRest, type Json } from './helpers';

/** Dialect b: the same contract under other paths, a `bookId` parameter and pages of 1–25 (default 10). */
let sb: Sandbox;
let doc: Json;
beforeAll(async () => {
  sb = await startTestSandbox({ dialect: 'b', seed: 30 });
  doc = await (await fetch(`${sb.baseUrl}/openapi.json`)).json();
});
afterAll(() => sb.close());

function routes(): Map<string, { method: string; path: string; op: Json }> {
  const found = new Map<string, { method: string; path: string; op: Json }>();
  for (const [path, item] of Object.entries<Json>(doc.paths))
    for (const [method, op] of Object.entries<Json>(item)) found.set(op.operationId, { method, path, op });
  return found;
}

const path = (id: string, playbookId = '') => routes().get(id)!.path.replace('{bookId}', playbookId);

describe('dialect b', () => {
  it('serves a valid OpenAPI document with every operationId of the contract at other paths', async () => {
    const result = await validate(structuredClone(doc));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(sb.dialect).toBe('b');
    expect(doc.servers[0].url).toBe(`${sb.baseUrl}/api`);
    expect(sb.apiUrl).toBe(doc.servers[0].url);
    const a = DIALECT_SPECS.a.paths;
    for (const [id, { path }] of routes()) {
      expect(path, id).toBe(DIALECT_SPECS.b.paths[id as keyof typeof a]);
      expect(path, id).not.toBe(a[id as keyof typeof a]);
    }
    expect(routes().size).toBe(Object.keys(a).length);
  });

  it('per-playbook operations have one path parameter, named bookId', () => {
    for (const id of ['getPlaybook', 'updatePlaybook', 'runBacktest', 'activatePlaybook', 'pausePlaybook']) {
      const params = routes()
        .get(id)!
        .op.parameters.filter((p: Json) => p.in === 'path');
      expect(
        params.map((p: Json) => p.name),
        id,
      ).toEqual(['bookId']);
    }
  });

  it.each(['listPlaybooks', 'listPublicPlaybooks', 'listEvents', 'listPlaybooksLegacy'])(
    '%s declares limit 1-25 default 10',
    (id) => {
      const limit = routes()
        .get(id)!
        .op.parameters.find((p: Json) => p.name === 'limit');
      expect(limit.schema).toEqual({ type: 'integer', minimum: 1, maximum: 25, default: 10 });
    },
  );

  it('lists page by the declared bounds: default 10, 25 allowed, 26 refused; the walk sees every playbook once', async () => {
    const first = await api(sb, path('listPlaybooks'));
    expect(first.status).toBe(200);
    expect(first.json.data).toHaveLength(10);
    expect(first.json.has_more).toBe(true);
    expect((await api(sb, `${path('listPlaybooks')}?limit=25`)).json.data).toHaveLength(25);
    expectProblem(await api(sb, `${path('listPlaybooks')}?limit=26`), 400, 'invalid_limit');
    const ids = await walkRest(sb, path('listPlaybooks'), 7);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(30);
  });

  it('the dialect a paths do not exist here', async () => {
    expect(
      (await fetch(`${sb.baseUrl}/api/v1/playbooks`, { headers: { Authorization: `Bearer ${sb.demoKey}` } }))
        .status,
    ).toBe(404);
    expectProblem(await api(sb, '/playbooks'), 404, 'no_such_operation');
  });

  it('every write and read works at its dialect path with bookId', async () => {
    const created = await api(sb, path('createPlaybook'), {
      idempotencyKey: newKey(),
      body: { title: 'Dialect b', thesis: 'Books, not playbooks.', visibility: 'private' },
    });
    expect(created.status).toBe(201);
    const id = created.json.id;
    expect(created.headers.get('location')).toBe(`${sb.apiUrl}/v2/books/${id}`);
    const read = await api(sb, path('getPlaybook', id));
    expect(read.json.title).toBe('Dialect b');
    const updated = await api(sb, path('updatePlaybook', id), {
      method: 'PATCH',
      idempotencyKey: newKey(),
      headers: { 'If-Match': read.json.etag },
      body: { title: 'Dialect b, renamed' },
    });
    expect(updated.status).toBe(200);
    const backtest = await api(sb, path('runBacktest', id), {
      idempotencyKey: newKey(),
      body: { start: '2020-01-01', end: '2021-01-01' },
    });
    expect(backtest.status).toBe(202);
    const paused = await api(sb, path('pausePlaybook', id), { idempotencyKey: newKey(), body: {} });
    expect(paused.json.status).toBe('paused');
    expectProblem(
      await api(sb, path('activatePlaybook', id), { idempotencyKey: newKey(), body: {} }),
      403,
      'brokerage_not_linked',
    );
    const batch = await api(sb, path('batchGetPlaybooks'), { body: { ids: [id, 'missing'] } });
    expect(batch.json.results.map((r: Json) => r.status)).toEqual([200, 404]);
    expect(batch.json.results[1].error.instance).toBe('/api/v2/books/missing');
    const checkout = await api(sb, path('createCheckoutSession'), {
      idempotencyKey: newKey(),
      body: { plan: 'team' },
    });
    expect(checkout.status).toBe(201);
    expect((await api(sb, path('getAccount'))).json.name).toBe('Demo Investor');
    expect((await api(sb, path('getStatus'))).json.status).toBe('operational');
  });

  it('events: polling bounded like lists, and the stream at its own path', async () => {
    const polled = await api(sb, `${path('listEvents')}?limit=25`);
    expect(polled.status).toBe(200);
    expectProblem(await api(sb, `${path('listEvents')}?limit=50`), 400, 'invalid_limit');
    const controller = new AbortController();
    const response = await fetch(`${sb.apiUrl}${path('streamEvents')}`, {
      headers: { Authorization: `Bearer ${sb.demoKey}` },
      signal: controller.signal,
    });
    const events: { data: string }[] = [];
    // Only this test's event: a backtest queued by an earlier test may complete while the stream opens.
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

  it('GraphQL bounds first like the REST limit', async () => {
    const query = 'query($first: Int) { playbooks(first: $first) { edges { node { id } } } }';
    const ok = await api(sb, path('graphql'), { body: { query, variables: { first: 25 } } });
    expect(ok.json.data.playbooks.edges).toHaveLength(25);
    const tooMany = await api(sb, path('graphql'), { body: { query, variables: { first: 26 } } });
    expect(tooMany.json.errors[0].message).toBe('first must be from 1 to 25.');
  });

  it('the documents quote the dialect bounds', async () => {
    expect(await (await fetch(`${sb.baseUrl}/api-docs.md`)).text()).toContain('is 1–25, default 10');
  });
});
