import { describe, expect, it } from 'vitest';
import type { Page } from '@/lib/api';
import { keepKeyOutOfLogs, clientFor, json, openApiDocument, playbook, SENTINEL_KEY } from './support';

keepKeyOutOfLogs();

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
    // The user is told the list is deprecated and what answers instead.
    expect(client.deprecations()).toContainEqual(
      expect.objectContaining({ operationId: 'listPlaybooks', replacedBy: 'graphql' }),
    );
  });
});

describe('listPage(): one page', () => {
  it('sends one request and hands back the page with the cursor to continue from', async () => {
    const { client, requests } = clientFor(() =>
      json({ data: [playbook('a'), playbook('b')], has_more: true, next_cursor: 'c2' }),
    );
    const page = await client.listPage('listPlaybooks', {
      query: { visibility: 'private', cursor: 'c1' },
      pageSize: 2,
    });
    expect(requests.map((request) => new URL(request.url).search)).toEqual([
      '?visibility=private&limit=2&cursor=c1',
    ]);
    expect(page).toMatchObject({ cursor: 'c1', nextCursor: 'c2', hasMore: true });
    expect(page.items.map((item) => (item as { id: string }).id)).toEqual(['a', 'b']);
    expect(page.stopReason).toBeUndefined();
  });

  it.each([
    ['the end of the list', { has_more: false, next_cursor: null }, 'end'],
    ['has_more without a cursor', { has_more: true, next_cursor: null }, 'missing-cursor'],
    ['an empty cursor', { has_more: true, next_cursor: '' }, 'missing-cursor'],
    ['the cursor it was asked with', { has_more: true, next_cursor: 'c1' }, 'repeated-cursor'],
    ['a cursor never seen', { has_more: true, next_cursor: 'c9' }, undefined],
  ])('names why no page follows: %s', async (_name, answer, reason) => {
    const { client } = clientFor(() => json({ data: [], ...answer }));
    const page = await client.listPage('listPlaybooks', { query: { cursor: 'c1' } });
    expect(page.stopReason).toBe(reason);
  });

  it('a playbook list past its sunset gives one GraphQL page in the REST shape', async () => {
    const document = openApiDocument() as { paths: Record<string, { get?: Record<string, unknown> }> };
    Object.assign(document.paths['/playbooks'].get!, {
      deprecated: true,
      'x-sunset': '2025-06-30',
      'x-replaced-by': 'graphql',
    });
    const bodies: { variables: Record<string, unknown> }[] = [];
    const { client, requests } = clientFor(
      async (request) => {
        bodies.push((await request.json()) as (typeof bodies)[number]);
        return json({
          data: {
            playbooks: {
              edges: [
                {
                  cursor: 'g2',
                  node: { id: 'pb_2', title: 't', visibility: 'PRIVATE', status: 'DRAFT', createdAt: 'x' },
                },
              ],
              pageInfo: { hasNextPage: true, endCursor: 'g2' },
            },
          },
        });
      },
      { openApi: document },
    );
    const page = await client.listPage('listPlaybooks', { query: { cursor: 'g1' } });
    expect(requests).toHaveLength(1);
    expect(bodies[0].variables).toMatchObject({ after: 'g1' });
    expect(page).toMatchObject({ cursor: 'g1', nextCursor: 'g2', hasMore: true, stopReason: undefined });
    expect(page.items[0]).toMatchObject({ id: 'pb_2', status: 'draft', created_at: 'x' });
  });
});

describe('REST and GraphQL stop by the same rule', () => {
  /** The same walk, as REST pages and as GraphQL connections, from one list of (hasMore, nextCursor). */
  const answers = {
    'a repeated cursor': [
      [true, 'c1'],
      [true, 'c2'],
      [true, 'c1'],
    ],
    'a missing cursor': [
      [true, 'c1'],
      [true, null],
    ],
    'the end': [
      [true, 'c1'],
      [false, null],
    ],
    'the page limit': [
      [true, 'c1'],
      [true, 'c2'],
      [true, 'c3'],
      [true, 'c4'],
    ],
  } satisfies Record<string, [boolean, string | null][]>;

  it.each(Object.entries(answers))('%s', async (name, script) => {
    let restCall = 0;
    const rest = clientFor(() => {
      const [hasMore, cursor] = script[restCall++];
      return json({ data: [playbook(`r${restCall}`)], has_more: hasMore, next_cursor: cursor });
    });
    let graphCall = 0;
    const graph = clientFor(() => {
      const [hasNextPage, endCursor] = script[graphCall++];
      const node = { id: `g${graphCall}`, title: 't', visibility: 'PRIVATE', status: 'DRAFT' };
      return json({
        data: { playbooks: { edges: [{ cursor: 'x', node }], pageInfo: { hasNextPage, endCursor } } },
      });
    });
    const restPages = await collect(rest.client.paginate('listPlaybooks', { maxPages: 3 }));
    const graphPages = await collect(graph.client.paginateGraphQL({ maxPages: 3 }));
    const shape = (pages: Page<unknown>[]) =>
      pages.map(({ cursor, nextCursor, hasMore, stopReason, complete }) => ({
        cursor,
        nextCursor,
        hasMore,
        stopReason,
        complete,
      }));
    expect(shape(graphPages)).toEqual(shape(restPages));
    expect(restPages.at(-1)?.stopReason).toBe(
      {
        'a repeated cursor': 'repeated-cursor',
        'a missing cursor': 'missing-cursor',
        'the end': 'end',
        'the page limit': 'max-pages',
      }[name],
    );
  });
});
