/** Write operations, each under the idempotent write protocol: create, update, backtest, live, account links. */
import type { Hono } from 'hono';
import type { z } from 'zod';
import type { AppContext, AppEnv, SandboxContext } from '../context';
import { playbookPath, type OperationId } from '../dialect';
import { accountLinkUrl } from '../hostile';
import type { ProblemDetails } from '../http';
import {
  brokerageLinkBody,
  checkoutBody,
  createPlaybookBody,
  emptyBody,
  runBacktestBody,
  updatePlaybookBody,
} from '../schemas';
import type { Playbook, User } from '../store';
import { createIdempotentWrite, type WriteResult } from './idempotency';
import type { Routing } from './routing';

export function addWriteRoutes(api: Hono<AppEnv>, ctx: SandboxContext, routing: Routing): void {
  const { problem, requireUser, route, playbookId, deprecationHeaders } = routing;
  const idempotentWrite = createIdempotentWrite(ctx, routing);

  /** Under `foreignAccountUrls`, a successful answer of another write carries live account links too. */
  const withForeignAccountUrls = (id: OperationId, user: User, result: WriteResult): WriteResult => {
    if (!ctx.faults.config.foreignAccountUrls || result.status >= 400) return result;
    if (id === 'createCheckoutSession' || id === 'createBrokerageLink') return result;
    if (!result.body || typeof result.body !== 'object') return result;
    const checkout = ctx.store.createAccountLink(user.id, 'checkout', 'team');
    const link = ctx.store.createAccountLink(user.id, 'brokerage', 'sandbox-broker');
    return {
      ...result,
      body: {
        ...result.body,
        checkout_url: `${ctx.baseUrl}/sandbox/checkout/${checkout}`,
        link_url: `${ctx.baseUrl}/sandbox/brokerage-link/${link}`,
      },
    };
  };

  const write = <T>(
    c: AppContext,
    id: OperationId,
    permission: string,
    schema: z.ZodType<T>,
    perform: (user: User, body: T) => WriteResult,
    options: { allowEmpty?: boolean } = {},
  ): Promise<Response> =>
    idempotentWrite(
      c,
      id,
      permission,
      schema,
      (user, body) => withForeignAccountUrls(id, user, perform(user, body)),
      options,
    );

  /** The playbook for a write by `user`: 404 when invisible, 403 when visible but not theirs. */
  const ownedPlaybook = (c: AppContext, user: User, playbookId: string): Playbook | WriteResult => {
    const playbook = ctx.store.getPlaybook(playbookId);
    if (!playbook || (playbook.owner.id !== user.id && playbook.visibility === 'private')) {
      return {
        status: 404,
        body: {
          type: `${ctx.baseUrl}/problems/not_found`,
          title: 'Not found',
          status: 404,
          detail: 'No playbook with this id is visible to you.',
          instance: c.req.path,
          code: 'not_found',
        },
      };
    }
    if (playbook.owner.id !== user.id) {
      return {
        status: 403,
        body: {
          type: `${ctx.baseUrl}/problems/not_owner`,
          title: 'Forbidden',
          status: 403,
          detail: 'Only the owner can change this playbook.',
          instance: c.req.path,
          code: 'not_owner',
        },
      };
    }
    return playbook;
  };
  const isPlaybook = (value: Playbook | WriteResult): value is Playbook => 'id' in value;
  const problemResult = (c: AppContext, p: ProblemDetails): WriteResult => ({
    status: p.status,
    body: {
      type: `${ctx.baseUrl}/problems/${p.code}`,
      title: p.title,
      status: p.status,
      detail: p.detail,
      instance: c.req.path,
      code: p.code,
      ...(p.errors ? { errors: p.errors } : {}),
    },
  });

  api.post(route('createPlaybook'), (c) =>
    write(c, 'createPlaybook', 'playbooks:write', createPlaybookBody, (user, body) => {
      const playbook = ctx.store.createPlaybook(user.id, {
        title: body.title,
        thesis: body.thesis,
        visibility: body.visibility,
        tickers: body.tickers ?? [],
        source: body.source,
      });
      ctx.store.appendEvent(user.id, 'playbook.created', playbook.id, {
        title: playbook.title,
        visibility: playbook.visibility,
      });
      return {
        status: 201,
        body: playbook,
        headers: {
          ETag: playbook.etag,
          Location: `${ctx.apiUrl}${playbookPath(ctx.dialect, 'getPlaybook', playbook.id)}`,
        },
      };
    }),
  );

  api.patch(route('updatePlaybook'), async (c) => {
    const ifMatch = c.req.header('if-match');
    if (!ifMatch) {
      const user = requireUser(c, 'playbooks:write');
      if (user instanceof Response) return user;
      return problem(c, {
        status: 428,
        code: 'if_match_required',
        title: 'Precondition required',
        detail: "Send If-Match with the playbook's etag.",
      });
    }
    return write(c, 'updatePlaybook', 'playbooks:write', updatePlaybookBody, (user, body) => {
      const found = ownedPlaybook(c, user, playbookId(c));
      if (!isPlaybook(found)) return found;
      if (ifMatch.trim() !== '*' && !ifMatch.split(',').some((tag) => tag.trim() === found.etag)) {
        return problemResult(c, {
          status: 412,
          code: 'etag_mismatch',
          title: 'Precondition failed',
          detail: 'The playbook changed since you read it; read it again and reapply your change.',
        });
      }
      const updated = ctx.store.updatePlaybook(found.id, body);
      ctx.store.appendEvent(user.id, 'playbook.updated', updated.id, { fields: Object.keys(body) });
      return { status: 200, body: updated, headers: { ETag: updated.etag } };
    });
  });

  api.post(route('runBacktest'), (c) =>
    write(c, 'runBacktest', 'backtests:run', runBacktestBody, (user, body) => {
      const found = ownedPlaybook(c, user, playbookId(c));
      if (!isPlaybook(found)) return found;
      const benchmark = body.benchmark ?? 'SPY';
      const backtestId = ctx.store.backtests.create(user.id, found.id, {
        start: body.start,
        end: body.end,
        benchmark,
      });
      const later = (ms: number, run: () => void) => {
        const timer = setTimeout(() => {
          ctx.timers.delete(timer);
          if (!ctx.closing.aborted) run();
        }, ms);
        ctx.timers.add(timer);
      };
      later(ctx.backtestDelayMs / 2, () => ctx.store.backtests.markRunning(backtestId));
      later(ctx.backtestDelayMs, () =>
        ctx.store.transaction(() => {
          const metrics = ctx.store.backtests.complete(backtestId);
          ctx.store.appendEvent(user.id, 'backtest.completed', found.id, {
            backtest_id: backtestId,
            total_return: metrics.total_return,
            benchmark_return: metrics.benchmark_return,
            max_drawdown: metrics.max_drawdown,
            sharpe: metrics.sharpe,
          });
        }),
      );
      return { status: 202, body: { id: backtestId, playbook_id: found.id, status: 'queued' } };
    }),
  );

  api.post(route('activatePlaybook'), (c) =>
    write(
      c,
      'activatePlaybook',
      'execution:manage',
      emptyBody,
      (user) => {
        const found = ownedPlaybook(c, user, playbookId(c));
        if (!isPlaybook(found)) return found;
        if (!ctx.store.getUser(user.id)?.brokerage_linked) {
          return problemResult(c, {
            status: 403,
            code: 'brokerage_not_linked',
            title: 'Brokerage not linked',
            detail: 'Link a brokerage account before activating live automation.',
          });
        }
        const updated = ctx.store.updatePlaybook(found.id, { status: 'active' });
        ctx.store.appendEvent(user.id, 'execution.started', updated.id, { status: 'active' });
        return { status: 200, body: updated, headers: { ETag: updated.etag } };
      },
      { allowEmpty: true },
    ),
  );

  api.post(route('pausePlaybook'), (c) =>
    write(
      c,
      'pausePlaybook',
      'execution:manage',
      emptyBody,
      (user) => {
        const found = ownedPlaybook(c, user, playbookId(c));
        if (!isPlaybook(found)) return found;
        const updated = ctx.store.updatePlaybook(found.id, { status: 'paused' });
        ctx.store.appendEvent(user.id, 'execution.stopped', updated.id, { status: 'paused' });
        const deprecated = ctx.faults.config.openapiTamper.includes('pause-replaced-by-activate');
        return {
          status: 200,
          body: updated,
          headers: { ETag: updated.etag, ...(deprecated ? deprecationHeaders('activatePlaybook') : {}) },
        };
      },
      { allowEmpty: true },
    ),
  );

  api.post(route('createCheckoutSession'), (c) =>
    write(c, 'createCheckoutSession', 'billing:manage', checkoutBody, (user, body) => {
      const token = ctx.store.createAccountLink(user.id, 'checkout', body.plan);
      const url = accountLinkUrl(ctx.faults.config.accountLinkUrl, ctx.baseUrl, `/sandbox/checkout/${token}`);
      return { status: 201, body: { checkout_url: url } };
    }),
  );

  api.post(route('createBrokerageLink'), (c) =>
    write(c, 'createBrokerageLink', 'execution:manage', brokerageLinkBody, (user, body) => {
      const token = ctx.store.createAccountLink(user.id, 'brokerage', body.provider);
      const url = accountLinkUrl(
        ctx.faults.config.accountLinkUrl,
        ctx.baseUrl,
        `/sandbox/brokerage-link/${token}`,
      );
      return { status: 201, body: { link_url: url } };
    }),
  );
}
