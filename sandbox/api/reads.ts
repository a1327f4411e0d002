/** Read operations: status, account, playbook lists and pages, batch get, one playbook, GraphQL. */
import type { Hono } from 'hono';
import type { AppContext, AppEnv, SandboxContext } from '../context';
import { playbookPath, type OperationId } from '../dialect';
import { executeGraphql } from '../graphql';
import { jsonResponse, readJsonBody } from '../http';
import { pagePlaybooks, parseLimit, parseVisibility } from '../lists';
import { batchGetBody, componentSchemas } from '../schemas';
import type { Playbook, User } from '../store';
import type { Routing } from './routing';

const graphqlRequestBody = componentSchemas.GraphQLRequest.strict();

/** Others' private playbooks are invisible: they answer as if they did not exist. */
const visibleTo = (playbook: Playbook | null, user: User): playbook is Playbook =>
  Boolean(playbook && (playbook.owner.id === user.id || playbook.visibility !== 'private'));

export function addReadRoutes(api: Hono<AppEnv>, ctx: SandboxContext, routing: Routing): void {
  const { problem, notFound, requireUser, route, playbookId, deprecationHeaders, listRoute } = routing;

  api.get(route('getStatus'), () => jsonResponse(200, ctx.status));

  api.get(route('listPublicPlaybooks'), (c) =>
    listRoute(c, 'listPublicPlaybooks', () => {
      const page = pagePlaybooks(
        ctx,
        { public: true },
        undefined,
        c.req.query('cursor'),
        parseLimit(c.req.query('limit'), ctx.dialect.limits.default, ctx.dialect.limits),
      );
      return { body: { data: page.data, has_more: page.has_more, next_cursor: page.next_cursor } };
    }),
  );

  api.get(route('getAccount'), (c) => {
    const user = requireUser(c);
    if (user instanceof Response) return user;
    return jsonResponse(200, ctx.store.getUser(user.id));
  });

  const listOwn = (c: AppContext, id: OperationId, headers?: Record<string, string>) => {
    const user = requireUser(c, 'playbooks:read');
    if (user instanceof Response) return user;
    return listRoute(c, id, () => {
      const page = pagePlaybooks(
        ctx,
        { ownerId: user.id },
        parseVisibility(c.req.query('visibility')),
        c.req.query('cursor'),
        parseLimit(c.req.query('limit'), ctx.dialect.limits.default, ctx.dialect.limits),
      );
      return { body: { data: page.data, has_more: page.has_more, next_cursor: page.next_cursor }, headers };
    });
  };
  api.get(route('listPlaybooks'), (c) =>
    listOwn(
      c,
      'listPlaybooks',
      ctx.faults.config.deprecateListPlaybooks ? deprecationHeaders('graphql') : undefined,
    ),
  );
  api.get(route('listPlaybooksLegacy'), (c) =>
    listOwn(c, 'listPlaybooksLegacy', deprecationHeaders('listPlaybooks')),
  );

  api.post(route('batchGetPlaybooks'), async (c) => {
    const user = requireUser(c, 'playbooks:read');
    if (user instanceof Response) return user;
    const body = await readJsonBody(c, batchGetBody);
    if (!body.ok) return problem(c, body.problem);
    const results = body.value.ids.map((id) => {
      const playbook = ctx.store.getPlaybook(id);
      if (visibleTo(playbook, user)) return { id, status: 200, playbook };
      return {
        id,
        status: 404,
        error: {
          type: `${ctx.baseUrl}/problems/not_found`,
          title: 'Not found',
          status: 404,
          detail: 'No playbook with this id is visible to you.',
          instance: `${ctx.dialect.apiPrefix}${playbookPath(ctx.dialect, 'getPlaybook', id)}`,
          code: 'not_found',
        },
      };
    });
    return jsonResponse(200, { results });
  });

  api.get(route('getPlaybook'), (c) => {
    const user = requireUser(c, 'playbooks:read');
    if (user instanceof Response) return user;
    const playbook = ctx.store.getPlaybook(playbookId(c));
    if (!visibleTo(playbook, user)) return notFound(c);
    if (
      c.req
        .header('if-none-match')
        ?.split(',')
        .some((tag) => tag.trim() === playbook.etag)
    ) {
      return new Response(null, { status: 304, headers: { ETag: playbook.etag } });
    }
    return jsonResponse(200, playbook, { ETag: playbook.etag });
  });

  api.post(route('graphql'), async (c) => {
    const user = requireUser(c, 'playbooks:read');
    if (user instanceof Response) return user;
    const body = await readJsonBody(c, graphqlRequestBody);
    if (!body.ok) return problem(c, body.problem);
    const result = await executeGraphql(ctx, user, body.value);
    return jsonResponse(200, result);
  });
}
