/** Catalysts (`listCatalysts`, keyset pages ascending by date) and `getPlaybookPerformance`. */
import type { Hono } from 'hono';
import { createHash } from 'node:crypto';
import { playbookPerformance, utcDate } from '../catalystModel';
import type { CatalystPosition } from '../catalystStore';
import type { AppContext, AppEnv, SandboxContext } from '../context';
import { CursorError, decodePosition, encodeCursor } from '../cursor';
import { badRequest, jsonResponse } from '../http';
import { ListError, parseLimit, withListFaults } from '../lists';
import { CATALYST_TICKERS_MAX, isoDate, ticker } from '../schemas';
import type { Playbook, User } from '../store';
import type { Routing } from './routing';

const invalid = (path: string, message: string, code = 'invalid_query'): ListError =>
  new ListError(badRequest(`${path}: ${message}.`, code, [{ path, message }]));

/** Others' private playbooks are invisible: they answer as if they did not exist. */
const visibleTo = (playbook: Playbook | null, user: User): playbook is Playbook =>
  Boolean(playbook && (playbook.owner.id === user.id || playbook.visibility !== 'private'));

function parseTickers(value: string): string[] {
  const tickers = value.split(',');
  if (tickers.length > CATALYST_TICKERS_MAX)
    throw invalid('tickers', `at most ${CATALYST_TICKERS_MAX} tickers`);
  for (const symbol of tickers)
    if (!ticker.safeParse(symbol).success) throw invalid('tickers', 'each a ticker symbol such as AAPL');
  return [...new Set(tickers)];
}

function parseDate(name: 'from' | 'to', value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!isoDate.safeParse(value).success) throw invalid(name, 'a full-date as YYYY-MM-DD');
  return value;
}

function parseCursor(cursor: string | undefined, filter: string): CatalystPosition | null {
  if (cursor === undefined) return null;
  try {
    const position = decodePosition(cursor, 'catalysts', filter);
    if (position.a === undefined) throw new CursorError('The cursor is not one this service issued.');
    return { at: position.a, seq: position.s };
  } catch (error) {
    if (!(error instanceof CursorError)) throw error;
    throw invalid('cursor', error.message, 'invalid_cursor');
  }
}

export function addCatalystRoutes(api: Hono<AppEnv>, ctx: SandboxContext, routing: Routing): void {
  const { notFound, requireUser, route, playbookId, listRoute } = routing;

  /** The tickers a query names; a playbook the caller may not see is a 404, as a missing one. */
  const tickersOf = (c: AppContext, user: User): string[] => {
    const byPlaybook = c.req.query('playbook_id');
    const byTickers = c.req.query('tickers');
    if ((byPlaybook === undefined) === (byTickers === undefined))
      throw invalid('playbook_id', 'give exactly one of playbook_id or tickers');
    if (byTickers !== undefined) return parseTickers(byTickers);
    const playbook = ctx.store.getPlaybook(byPlaybook ?? '');
    if (visibleTo(playbook, user)) return playbook.tickers;
    throw new ListError({
      status: 404,
      code: 'not_found',
      title: 'Not found',
      detail: 'No playbook with this id is visible to you.',
    });
  };

  api.get(route('listCatalysts'), (c) => {
    const user = requireUser(c, 'playbooks:read');
    if (user instanceof Response) return user;
    return listRoute(c, 'listCatalysts', () => {
      const tickers = tickersOf(c, user);
      const limit = parseLimit(c.req.query('limit'), ctx.dialect.limits.default, ctx.dialect.limits);
      const from = parseDate('from', c.req.query('from')) ?? utcDate(ctx.now());
      const to = parseDate('to', c.req.query('to')) ?? null;
      if (to !== null && to < from) throw invalid('to', 'not before from');
      const filter = `${user.id}:${createHash('sha256')
        .update(JSON.stringify([tickers, from, to]))
        .digest('base64url')
        .slice(0, 22)}`;
      const after = parseCursor(c.req.query('cursor'), filter);
      if (tickers.length === 0) return { body: { data: [], has_more: false, next_cursor: null } };
      const page = ctx.store.catalysts.list(user.id, { tickers, from, to, after, limit });
      const next =
        page.hasMore && page.last
          ? encodeCursor('catalysts', filter, page.last.seq, false, page.last.at)
          : null;
      const last = page.last ?? after ?? { seq: 0, at: from };
      const paging = withListFaults(
        ctx,
        { has_more: page.hasMore, next_cursor: next },
        c.req.query('cursor'),
        (fresh) => encodeCursor('catalysts', filter, last.seq, fresh, last.at),
      );
      return { body: { data: page.rows, ...paging } };
    });
  });

  api.get(route('getPlaybookPerformance'), (c) => {
    const user = requireUser(c, 'playbooks:read');
    if (user instanceof Response) return user;
    const playbook = ctx.store.getPlaybook(playbookId(c));
    if (!visibleTo(playbook, user)) return notFound(c);
    return jsonResponse(200, playbookPerformance(playbook, ctx.now()));
  });
}
