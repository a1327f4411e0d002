import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/server';
import { api, expectProblem, startTestSandbox, walkRest, type Json } from './helpers';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ seed: 57 });
});
afterAll(() => sb.close());

const QUERY = `query Walk($first: Int, $after: String, $visibility: Visibility) {
  playbooks(first: $first, after: $after, visibility: $visibility) {
    edges { cursor node { id title visibility createdAt updatedAt etag owner { id name } } }
    pageInfo { hasNextPage endCursor }
  }
}`;

async function gql(query: string, variables: Record<string, unknown> = {}, key?: string | null) {
  return api(sb, '/graphql', { key, body: { query, variables } });
}

async function walkGraphql(first: number, visibility?: string): Promise<string[]> {
  const ids: string[] = [];
  let after: string | null = null;
  for (;;) {
    const result: Json = await gql(QUERY, { first, after, visibility });
    expect(result.json.errors).toBeUndefined();
    const connection = result.json.data.playbooks;
    ids.push(...connection.edges.map((e: Json) => e.node.id));
    if (!connection.pageInfo.hasNextPage) return ids;
    after = connection.pageInfo.endCursor;
  }
}

describe('GraphQL', () => {
  it.each([[7], [20], [100]])('the GraphQL walk equals the REST walk (page size %i)', async (size) => {
    const rest = await walkRest(sb, '/playbooks', size);
    expect(rest.length).toBe(sb.db.playbookCount('usr_demo'));
    expect(await walkGraphql(size)).toEqual(rest);
  });

  it('the visibility filter walks equal too', async () => {
    expect(await walkGraphql(4, 'private')).toEqual(await walkRest(sb, '/playbooks?visibility=private', 4));
  });

  it('fields are the REST names in camelCase with the same values', async () => {
    const rest = (await api(sb, '/playbooks?limit=1')).json.data[0];
    const node = (await gql(QUERY, { first: 1 })).json.data.playbooks.edges[0].node;
    expect(node).toEqual({
      id: rest.id,
      title: rest.title,
      visibility: rest.visibility,
      createdAt: rest.created_at,
      updatedAt: rest.updated_at,
      etag: rest.etag,
      owner: rest.owner,
    });
  });

  it.each([[{ first: 0 }], [{ first: 101 }], [{ first: 5, after: 'garbage' }]])(
    'bad arguments %j are GraphQL errors, not data',
    async (variables) => {
      const result = await gql(QUERY, variables);
      expect(result.json.errors.length).toBeGreaterThan(0);
      expect(result.json.data).toBeNull();
    },
  );

  it('authentication failures are HTTP 401 as for REST; bad JSON is a 400 problem', async () => {
    expectProblem(await gql(QUERY, {}, null), 401);
    expectProblem(await api(sb, '/graphql', { rawBody: '{"query":' }), 400, 'invalid_json');
  });

  it('offers no mutations (read-only)', async () => {
    const result = await gql('mutation { createPlaybook(title: "x") { id } }');
    expect(result.json.errors.length).toBeGreaterThan(0);
  });
});
