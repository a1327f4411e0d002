/**
 * The REST API under the dialect's prefix (/api/v1 in dialect a): the middleware in the order it
 * runs, then the operations. Each part lives in sandbox/api/.
 */
import { Hono } from 'hono';
import type { AppEnv, SandboxContext } from './context';
import { addBacktestRoutes } from './api/backtests';
import { addCatalystRoutes } from './api/catalysts';
import { addEventRoutes } from './api/events';
import {
  apiCors,
  callerAndRateLimit,
  faultsAfterAnswer,
  faultsBeforeAnswer,
  hostileHeaders,
} from './api/middleware';
import { addReadRoutes } from './api/reads';
import { createRouting } from './api/routing';
import { addWriteRoutes } from './api/writes';

export function createApi(ctx: SandboxContext): Hono<AppEnv> {
  const api = new Hono<AppEnv>();
  const routing = createRouting(ctx);

  api.use('*', apiCors());
  api.use('*', hostileHeaders(ctx));
  api.use('*', faultsBeforeAnswer(ctx, routing));
  api.use('*', callerAndRateLimit(ctx, routing));
  api.use('*', faultsAfterAnswer(ctx));

  addReadRoutes(api, ctx, routing);
  addBacktestRoutes(api, ctx, routing);
  addCatalystRoutes(api, ctx, routing);
  addEventRoutes(api, ctx, routing);
  addWriteRoutes(api, ctx, routing);

  api.all('*', (c) =>
    routing.problem(c, {
      status: 404,
      code: 'no_such_operation',
      title: 'Not found',
      detail: `No operation answers ${c.req.method} ${c.req.path}. See /openapi.json.`,
    }),
  );

  api.onError((error, c) => {
    ctx.reportError('sandbox.api.error', error);
    return routing.problem(c, {
      status: 500,
      code: 'internal_error',
      title: 'Internal server error',
      detail: 'The sandbox failed to answer; see its console.',
    });
  });

  return api;
}
