/**
 * A list page is service output: it may hold no more items than the page size asked for (the
 * declared bounds, CONTRACT.md section 2), and its cursor is sent back by the pages, whose messages
 * take at most MAX_CURSOR_LENGTH characters. Before, a page of 2,000 playbooks (under the 2 MB body
 * bound) where 25 were asked for was cached and posted whole, and a 1 MB cursor was kept, posted and stored with it.
 */
import { describe, expect, it } from 'vitest';
import { isApiError, type Page } from '@/lib/api';
import { MAX_CURSOR_LENGTH } from '@/lib/contract/wire';
import { keepKeyOutOfLogs, clientFor, json, openApiDocument, playbook } from './support';

keepKeyOutOfLogs();

async function collect<T>(pages: AsyncGenerator<Page<T>>): Promise<Page<T>[]> {
  const out: Page<T>[] = [];
  for await (const page of pages) out.push(page);
  return out;
}

const many = (count: number) => Array.from({ length: count }, (_v, i) => playbook(`p${i}`));

describe('a page longer than asked for', () => {
  it.each([
    ['the declared default', { maximum: 25, default: 25 }, undefined, 25],
    ['a page size asked for', { maximum: 100, default: 20 }, 10, 10],
  ])('is refused as malformed (%s)', async (_name, limit, pageSize, asked) => {
    const { client } = clientFor(() => json({ data: many(2_000), has_more: false, next_cursor: null }), {
      openApi: openApiDocument({ limit }),
    });
    const error: unknown = await client.listPage('listPlaybooks', { pageSize }).catch((e: unknown) => e);
    expect(isApiError(error) && error.kind).toBe('malformed-response');
    // A page exactly as long as asked for is read.
    const exact = clientFor(() => json({ data: many(asked), has_more: false, next_cursor: null }), {
      openApi: openApiDocument({ limit }),
    });
    expect((await exact.client.listPage('listPlaybooks', { pageSize })).items).toHaveLength(asked);
  });

  it('is refused in a GraphQL connection too, before its nodes are read', async () => {
    const node = (id: string) => ({ id, title: id, visibility: 'PRIVATE', status: 'DRAFT' });
    const { client } = clientFor(() =>
      json({
        data: {
          playbooks: {
            edges: Array.from({ length: 500 }, (_v, i) => ({ cursor: `e${i}`, node: node(`n${i}`) })),
            pageInfo: { hasNextPage: false, endCursor: null },
          },
        },
      }),
    );
    const error: unknown = await collect(client.paginateGraphQL({ pageSize: 5 })).catch((e: unknown) => e);
    expect(isApiError(error) && error.kind).toBe('malformed-response');
  });
});

describe('a cursor longer than a page may send back', () => {
  it('ends the list there, reported incomplete, and is not kept', async () => {
    const { client, requests } = clientFor(() =>
      json({ data: many(2), has_more: true, next_cursor: 'c'.repeat(1_000_000) }),
    );
    const page = await client.listPage('listPlaybooks');
    expect(page).toMatchObject({ nextCursor: null, hasMore: true, stopReason: 'missing-cursor' });
    expect(page.items).toHaveLength(2);
    const walked = await collect(client.paginate('listPlaybooks', { maxPages: 5 }));
    expect(walked).toHaveLength(1);
    expect(walked[0]).toMatchObject({ nextCursor: null, complete: false });
    expect(requests.every((request) => request.url.length < 10_000)).toBe(true);
  });

  it('keeps a cursor of exactly MAX_CURSOR_LENGTH characters', async () => {
    const cursor = 'c'.repeat(MAX_CURSOR_LENGTH);
    const { client } = clientFor(() => json({ data: [], has_more: true, next_cursor: cursor }));
    expect((await client.listPage('listPlaybooks')).nextCursor).toBe(cursor);
  });
});
