/** The REST API's reads: list walks and their cursors, and what another user's playbooks show. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/server';
import { api, expectProblem, newKey, startTestSandbox, walkRest, type Json } from './helpers';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ seed: 45 });
});
afterAll(() => sb.close());

const otherPlaybooks = () => sb.db.listPlaybooks({ ownerId: 'usr_ada' }, null, 100).rows;

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
