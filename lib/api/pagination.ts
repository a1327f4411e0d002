/**
 * Cursor pagination, REST (`data`, `has_more`, `next_cursor`) and GraphQL (`edges`, `pageInfo`)
 * alike: each form only fetches a page; one set of rules decides when a walk stops (the end, a
 * missing cursor, a cursor seen before, the page limit), so a service that loops cannot keep the
 * worker paging forever and an early stop is never reported as a complete list.
 */
import { t } from '@/lib/i18n';
import { z } from 'zod';
import { log, maskSecrets } from '@/lib/log';
import { ApiError } from './errors';
import type { ResolvedOperation } from './operations';
import {
  choosePageSize,
  pageSizeBounds,
  type PageSizeBounds,
  type QueryValue,
  type UrlArguments,
} from './urls';
import { MAX_CURSOR_LENGTH } from '@/lib/contract/wire';
import {
  graphQLConnectionSchema,
  graphQLResponseSchema,
  type GraphQLPlaybook,
  type Playbook,
} from './schemas';
import type { ApiResponse } from './transport';
import { parseKnownShape } from './validate';
import { isVisibility, type Visibility } from '@/lib/contract/visibility';

export type PageStopReason = 'end' | 'max-pages' | 'repeated-cursor' | 'missing-cursor';

export interface ListPageOptions {
  path?: UrlArguments['path'];
  /** The playbook a per-playbook list belongs to (its single path parameter, whatever its name). */
  playbookId?: string;
  /** `cursor` here continues after an earlier page's nextCursor. */
  query?: Record<string, QueryValue>;
  pageSize?: number;
  signal?: AbortSignal;
}

export interface PaginateOptions extends ListPageOptions {
  maxPages?: number;
}

export interface GraphQLPaginateOptions {
  visibility?: Visibility;
  /** Continue after this cursor (an `endCursor` of an earlier page). */
  after?: string;
  pageSize?: number;
  maxPages?: number;
  signal?: AbortSignal;
}

/** One page of a list. */
export interface ListPageResult<T> {
  items: T[];
  /** The cursor this page was requested with. */
  cursor?: string;
  nextCursor: string | null;
  hasMore: boolean;
  /** Why no page may follow this one; absent while nextCursor leads to a page not seen yet. */
  stopReason?: PageStopReason;
}

/** One page of a walk over many. */
export interface Page<T> extends ListPageResult<T> {
  pageNumber: number;
  /** True only when the service said there is nothing more (never while has_more holds). */
  complete: boolean;
}

/** A read as the client sends it (coalesced, retried, validated). */
export type ReadCall = (
  operationId: string,
  options: UrlArguments & { body?: unknown; signal?: AbortSignal },
) => Promise<ApiResponse<unknown>>;

export interface PaginationDeps {
  call: ReadCall;
  /** Resolves a read, noting deprecations. */
  resolve(operationId: string): ResolvedOperation;
  /** Resolves an operation only to read its declared bounds; throws when it is unusable. */
  lookup(operationId: string): ResolvedOperation;
  /** The successor a deprecated operation names, not followed (a POST read is never reached as one). */
  declaredReplacement(operationId: string): string | undefined;
}

export interface Pagination {
  listPage: <T = unknown>(operationId: string, options?: ListPageOptions) => Promise<ListPageResult<T>>;
  paginate: <T = unknown>(
    operationId: string,
    options?: PaginateOptions,
  ) => AsyncGenerator<Page<T>, void, undefined>;
  paginateGraphQL: (
    options?: GraphQLPaginateOptions,
  ) => AsyncGenerator<Page<GraphQLPlaybook>, void, undefined>;
}

/** What a page fetch tells about the list, whatever its wire form. */
interface FetchedPage<T> {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
}

/** A list as something that fetches the page after a cursor (undefined: the first page). */
interface CursorList<T> {
  /** The operation named in logs. */
  operationId: string;
  startCursor?: string;
  fetchPage(cursor: string | undefined): Promise<FetchedPage<T>>;
}

/** REST lists of playbooks whose GraphQL connection is equivalent. */
const PLAYBOOK_LISTS = new Set(['listPlaybooks', 'listPlaybooksLegacy']);
/** The contract's batch size, the GraphQL page bound when the document declares none. */
const GRAPHQL_FALLBACK_BOUNDS: PageSizeBounds = { minimum: 1, maximum: 50, default: 20 };
const DEFAULT_MAX_PAGES = 10;
/** Items a page may hold when the document declares no page size: the contract's maximum. */
const FALLBACK_MAX_PAGE_ITEMS = 100;
const HARD_MAX_PAGES = 100;

const PLAYBOOKS_QUERY = `query Playbooks($first: Int, $after: String, $visibility: Visibility) {
  playbooks(first: $first, after: $after, visibility: $visibility) {
    edges { cursor node { id title thesis visibility status tickers createdAt updatedAt etag owner { id name } } }
    pageInfo { hasNextPage endCursor }
  }
}`;

/** A GraphQL node in the REST shape (camelCase dates back to snake_case), so callers see one Playbook. */
function restPlaybookOf(node: GraphQLPlaybook): Playbook {
  const { createdAt, updatedAt, ...rest } = node;
  return { ...rest, created_at: createdAt, updated_at: updatedAt } as Playbook;
}

function cursorOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * A page's next cursor as kept: one longer than MAX_CURSOR_LENGTH could not be sent back, so the
 * list ends there (reported incomplete, `missing-cursor`) rather than carry it through every cache.
 */
function keptCursor(operationId: string, cursor: string | null): string | null {
  if (cursor === null || cursor.length <= MAX_CURSOR_LENGTH) return cursor;
  log.warn('api.paginate.cursor-too-long', { operationId, length: cursor.length });
  return null;
}

/**
 * The page's items, checked against the page size asked for before anything reads them one by
 * one: a page of 10,000 where 25 were asked for is not cached, posted and drawn whole.
 */
function pageShapeOf(maxItems: number) {
  return z.object({
    data: z.array(z.unknown()).max(maxItems),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
  });
}
const edgesShapeOf = (maxItems: number) => z.looseObject({ edges: z.array(z.unknown()).max(maxItems) });

/** The one stop rule: why no page may follow `page`, given the cursors already requested. */
function stopReasonOf(page: FetchedPage<unknown>, seen: ReadonlySet<string>): PageStopReason | undefined {
  if (!page.hasMore) return 'end';
  if (page.nextCursor === null || page.nextCursor === '') return 'missing-cursor';
  if (seen.has(page.nextCursor)) return 'repeated-cursor';
  return undefined;
}

function noteStop(operationId: string, reason: PageStopReason | undefined, pages: number): void {
  if (reason && reason !== 'end') log.warn('api.paginate.stopped', { operationId, reason, pages });
}

async function* walk<T>(
  list: CursorList<T>,
  maxPages: number | undefined,
): AsyncGenerator<Page<T>, void, undefined> {
  const limit = Math.min(HARD_MAX_PAGES, Math.max(1, Math.floor(maxPages ?? DEFAULT_MAX_PAGES)));
  const seen = new Set<string>();
  let cursor = list.startCursor;
  if (cursor !== undefined) seen.add(cursor);
  for (let pageNumber = 1; ; pageNumber++) {
    const page = await list.fetchPage(cursor);
    const stopReason = stopReasonOf(page, seen) ?? (pageNumber >= limit ? 'max-pages' : undefined);
    noteStop(list.operationId, stopReason, pageNumber);
    yield { ...page, pageNumber, cursor, stopReason, complete: stopReason === 'end' };
    if (stopReason) return;
    cursor = page.nextCursor as string;
    seen.add(cursor);
  }
}

/** The GraphQL connection's page-size bounds, borrowed from the REST list. */
function graphQLBounds(deps: PaginationDeps): PageSizeBounds {
  // The GraphQL schema is not in the OpenAPI document; the REST list's declared bounds stand in for it.
  try {
    const bounds = pageSizeBounds(deps.lookup('listPlaybooks'));
    if (bounds) return bounds;
  } catch {
    // No usable listPlaybooks: fall back to the contract's batch size.
  }
  return GRAPHQL_FALLBACK_BOUNDS;
}

/** The playbooks connection of the GraphQL endpoint as a cursor list; a GraphQL error is a refusal. */
function graphQLList(deps: PaginationDeps, options: GraphQLPaginateOptions): CursorList<GraphQLPlaybook> {
  const first = choosePageSize(graphQLBounds(deps), options.pageSize);
  return {
    operationId: 'graphql',
    startCursor: options.after,
    async fetchPage(after) {
      const variables: Record<string, unknown> = { first };
      if (after !== undefined) variables.after = after;
      if (options.visibility) variables.visibility = options.visibility.toUpperCase();
      const result = await deps.call('graphql', {
        body: { query: PLAYBOOKS_QUERY, variables },
        signal: options.signal,
      });
      const body = parseKnownShape(graphQLResponseSchema, result.data, 'graphql', result.status);
      if (body.errors && body.errors.length > 0) {
        // Masked before the cut: a cut inside the key would leave a fragment the mask cannot see.
        const said = body.errors[0]?.message;
        const reason =
          said === undefined
            ? t('errors.api.unknownError')
            : maskSecrets(said).replace(/\s+/g, ' ').slice(0, 200);
        throw new ApiError({
          kind: 'validation',
          operationId: 'graphql',
          status: result.status,
          message: t('errors.api.graphqlRefused', { said: reason }),
        });
      }
      parseKnownShape(edgesShapeOf(first), body.data?.playbooks, 'graphql', result.status);
      const connection = parseKnownShape(
        graphQLConnectionSchema,
        body.data?.playbooks,
        'graphql',
        result.status,
      );
      return {
        items: connection.edges.map((edge) => edge.node),
        nextCursor: keptCursor('graphql', connection.pageInfo.endCursor),
        hasMore: connection.pageInfo.hasNextPage,
      };
    },
  };
}

/** A REST list (`data`, `has_more`, `next_cursor`) as a cursor list, its page size within the declared bounds. */
function restList<T>(
  deps: PaginationDeps,
  operationId: string,
  operation: ResolvedOperation,
  options: ListPageOptions,
): CursorList<T> {
  const bounds = pageSizeBounds(operation);
  const limit = bounds ? choosePageSize(bounds, options.pageSize) : undefined;
  const { cursor: startCursor, limit: _limit, ...rest } = options.query ?? {};
  const pageShape = pageShapeOf(limit ?? FALLBACK_MAX_PAGE_ITEMS);
  return {
    operationId,
    startCursor: cursorOf(startCursor),
    async fetchPage(cursor) {
      const query: Record<string, QueryValue> = { ...rest };
      if (limit !== undefined) query.limit = limit;
      if (cursor !== undefined) query.cursor = cursor;
      const result = await deps.call(operationId, {
        path: options.path,
        playbookId: options.playbookId,
        query,
        signal: options.signal,
      });
      const page = parseKnownShape(pageShape, result.data, result.operationId, result.status);
      return {
        items: page.data as T[],
        nextCursor: keptCursor(operationId, page.next_cursor),
        hasMore: page.has_more,
      };
    },
  };
}

export function createPagination(deps: PaginationDeps): Pagination {
  function listOf<T>(operationId: string, options: ListPageOptions): CursorList<T> {
    // A deprecated playbook list whose successor is GraphQL: page the connection instead, by
    // graphql's own operationId (CONTRACT.md section 2: replacements are followed only GET to GET).
    if (!PLAYBOOK_LISTS.has(operationId) || deps.declaredReplacement(operationId) !== 'graphql')
      return restList<T>(deps, operationId, deps.resolve(operationId), options);
    const visibility = options.query?.visibility;
    const connection = graphQLList(deps, {
      visibility: isVisibility(visibility) ? visibility : undefined,
      after: cursorOf(options.query?.cursor),
      pageSize: options.pageSize,
      signal: options.signal,
    });
    return {
      ...connection,
      fetchPage: async (cursor) => {
        const page = await connection.fetchPage(cursor);
        return { ...page, items: page.items.map(restPlaybookOf) as T[] };
      },
    };
  }

  return {
    async listPage<T>(operationId: string, options: ListPageOptions = {}): Promise<ListPageResult<T>> {
      const list = listOf<T>(operationId, options);
      const cursor = list.startCursor;
      const page = await list.fetchPage(cursor);
      const stopReason = stopReasonOf(page, new Set(cursor === undefined ? [] : [cursor]));
      noteStop(list.operationId, stopReason, 1);
      return { ...page, cursor, stopReason };
    },
    // Generators, so that nothing is resolved or sent before the first page is asked for.
    async *paginate<T>(operationId: string, options: PaginateOptions = {}) {
      yield* walk(listOf<T>(operationId, options), options.maxPages);
    },
    async *paginateGraphQL(options: GraphQLPaginateOptions = {}) {
      yield* walk(graphQLList(deps, options), options.maxPages);
    },
  };
}
