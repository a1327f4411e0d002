/** Backtest reads: one playbook's backtests (newest first, cursor pages) and one backtest with its equity. */
import type { Hono } from 'hono';
import type { Backtest } from '../backtestStore';
import type { AppEnv, SandboxContext } from '../context';
import { CursorError, decodeCursor, encodeCursor } from '../cursor';
import { badRequest, jsonResponse } from '../http';
import { ListError, parseLimit, withListFaults } from '../lists';
import type { Routing } from './routing';

/** The stored problem's type, made absolute on this origin. */
function served(backtest: Backtest, baseUrl: string): Backtest {
  return backtest.error
    ? { ...backtest, error: { ...backtest.error, type: `${baseUrl}${backtest.error.type}` } }
    : backtest;
}

export function addBacktestRoutes(api: Hono<AppEnv>, ctx: SandboxContext, routing: Routing): void {
  const { notFound, requireUser, route, playbookId, listRoute } = routing;
  const backtestParam = /\{(\w+)\}/.exec(ctx.dialect.paths.getBacktest)?.[1] ?? 'id';

  api.get(route('listBacktests'), (c) => {
    const user = requireUser(c, 'playbooks:read');
    if (user instanceof Response) return user;
    const playbook = ctx.store.getPlaybook(playbookId(c));
    // Backtests belong to whoever ran them: another user's playbook lists as missing.
    if (!playbook || playbook.owner.id !== user.id) return notFound(c);
    return listRoute(c, 'listBacktests', () => {
      const limit = parseLimit(c.req.query('limit'), ctx.dialect.limits.default, ctx.dialect.limits);
      const cursor = c.req.query('cursor');
      let beforeSeq: number | null = null;
      if (cursor !== undefined) {
        try {
          beforeSeq = decodeCursor(cursor, 'backtests', playbook.id);
        } catch (error) {
          if (!(error instanceof CursorError)) throw error;
          throw new ListError(
            badRequest(error.message, 'invalid_cursor', [{ path: 'cursor', message: error.message }]),
          );
        }
      }
      const page = ctx.store.backtests.list(playbook.id, user.id, beforeSeq, limit);
      const paging = withListFaults(
        ctx,
        {
          has_more: page.hasMore,
          next_cursor:
            page.hasMore && page.lastSeq !== null
              ? encodeCursor('backtests', playbook.id, page.lastSeq)
              : null,
        },
        cursor,
        (fresh) => encodeCursor('backtests', playbook.id, page.lastSeq ?? beforeSeq ?? 0, fresh),
      );
      return { body: { data: page.rows.map((row) => served(row, ctx.baseUrl)), ...paging } };
    });
  });

  api.get(route('getBacktest'), (c) => {
    const user = requireUser(c, 'playbooks:read');
    if (user instanceof Response) return user;
    const backtest = ctx.store.backtests.get(c.req.param(backtestParam) ?? '', user.id);
    if (!backtest) return notFound(c, 'backtest');
    return jsonResponse(200, served(backtest, ctx.baseUrl));
  });
}
