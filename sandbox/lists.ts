/** Keyset list pages shared by REST and GraphQL, so both walks are equal. */
import type { SandboxContext } from './context';
import { CursorError, decodeCursor, encodeCursor } from './cursor';
import { badRequest, type ProblemDetails } from './http';
import { visibilitySchema, type Visibility } from './schemas';
import type { Playbook } from './store';

export class ListError extends Error {
  constructor(readonly problem: ProblemDetails) {
    super(problem.detail);
  }
}

export interface PlaybookListPage {
  data: Playbook[];
  seqs: number[];
  has_more: boolean;
  next_cursor: string | null;
  kind: string;
  filter: string;
}

/** One keyset page of playbooks, shared by REST and GraphQL so both walks are equal. */
export function pagePlaybooks(
  ctx: SandboxContext,
  scope: { ownerId: string } | { public: true },
  visibility: Visibility | undefined,
  cursor: string | undefined,
  limit: number,
): PlaybookListPage {
  const kind = 'ownerId' in scope ? 'playbooks' : 'public';
  const filter = 'ownerId' in scope ? `${scope.ownerId}:${visibility ?? '*'}` : 'public';
  let beforeSeq: number | null = null;
  if (cursor !== undefined) {
    try {
      beforeSeq = decodeCursor(cursor, kind, filter);
    } catch (error) {
      if (error instanceof CursorError)
        throw new ListError(
          badRequest(error.message, 'invalid_cursor', [{ path: 'cursor', message: error.message }]),
        );
      throw error;
    }
  }
  const page = ctx.store.listPlaybooks(
    'ownerId' in scope ? { ownerId: scope.ownerId, visibility } : { visibility: 'public' },
    beforeSeq,
    limit,
  );
  const paging = withListFaults(
    ctx,
    {
      has_more: page.hasMore,
      next_cursor: page.hasMore && page.lastSeq !== null ? encodeCursor(kind, filter, page.lastSeq) : null,
    },
    cursor,
    (fresh) => encodeCursor(kind, filter, page.lastSeq ?? beforeSeq ?? 0, fresh),
  );
  return { data: page.rows, seqs: page.seqs, ...paging, kind, filter };
}

export interface Paging {
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * The list faults that spoil paging (repeatingCursor, endlessHasMore), for every keyset list:
 * `cursor` is the one the request sent, `past(fresh)` a cursor after this page (`fresh`: with a
 * nonce, so no two are equal).
 */
export function withListFaults(
  ctx: SandboxContext,
  paging: Paging,
  cursor: string | undefined,
  past: (fresh: boolean) => string,
): Paging {
  let { has_more, next_cursor } = paging;
  if (ctx.faults.config.endlessHasMore) {
    has_more = true;
    next_cursor = past(true);
  }
  if (ctx.faults.config.repeatingCursor) {
    has_more = true;
    next_cursor = cursor ?? next_cursor ?? past(false);
  }
  return { has_more, next_cursor };
}

export function parseLimit(
  value: string | undefined,
  fallback: number,
  bounds: { min: number; max: number },
): number {
  const { min: LIMIT_MIN, max: LIMIT_MAX } = bounds;
  if (value === undefined) return fallback;
  if (!/^\d{1,4}$/.test(value))
    throw new ListError(
      badRequest(`limit must be an integer from ${LIMIT_MIN} to ${LIMIT_MAX}.`, 'invalid_limit', [
        { path: 'limit', message: 'not an integer' },
      ]),
    );
  const limit = Number(value);
  if (limit < LIMIT_MIN || limit > LIMIT_MAX)
    throw new ListError(
      badRequest(`limit must be from ${LIMIT_MIN} to ${LIMIT_MAX}.`, 'invalid_limit', [
        { path: 'limit', message: `must be ${LIMIT_MIN}–${LIMIT_MAX}` },
      ]),
    );
  return limit;
}

export function parseVisibility(value: string | undefined): Visibility | undefined {
  if (value === undefined) return undefined;
  const parsed = visibilitySchema.safeParse(value);
  if (!parsed.success)
    throw new ListError(
      badRequest('visibility must be private, unlisted or public.', 'invalid_visibility', [
        { path: 'visibility', message: 'unknown visibility' },
      ]),
    );
  return parsed.data;
}
