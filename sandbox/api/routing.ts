/** What every route module of the API shares: problem answers, the caller, the dialect's paths. */
import type { SandboxContext, AppContext } from '../context';
import { routingPath, type OperationId } from '../dialect';
import { ListError } from '../lists';
import { badRequest, jsonResponse, problemResponse, type ProblemDetails } from '../http';
import type { User } from '../store';

/** Query parameters each list operation knows; any other name is a 400. */
const KNOWN_QUERY: Partial<Record<OperationId, string[]>> = {
  listPlaybooks: ['limit', 'cursor', 'visibility'],
  listPlaybooksLegacy: ['limit', 'cursor', 'visibility'],
  listPublicPlaybooks: ['limit', 'cursor'],
  listEvents: ['limit', 'cursor'],
  listBacktests: ['limit', 'cursor'],
  listCatalysts: ['limit', 'cursor', 'playbook_id', 'tickers', 'from', 'to'],
};

function rejectUnknownQuery(c: AppContext, id: OperationId): void {
  const known = KNOWN_QUERY[id] ?? [];
  const unknown = Object.keys(c.req.queries()).filter((name) => !known.includes(name));
  if (unknown.length)
    throw new ListError(
      badRequest(
        `Unknown query parameter: ${unknown.join(', ')}.`,
        'unknown_parameter',
        unknown.map((path) => ({ path, message: 'unknown parameter' })),
      ),
    );
}

export interface Routing {
  /** A problem+json answer about this request. */
  problem: (c: { req: { path: string } }, p: ProblemDetails, headers?: Record<string, string>) => Response;
  notFound: (c: AppContext, what?: string) => Response;
  /** The caller, or the 401/403 answer when there is none or it lacks `permission`. */
  requireUser: (c: AppContext, permission?: string) => User | Response;
  /** The Hono route of an operation in this dialect (`{id}` becomes `:id`; see `routingPath`). */
  route: (id: OperationId) => string;
  /** The playbook id from the path, under the dialect's parameter name. */
  playbookId: (c: AppContext) => string;
  rateHeaders: (remaining: number, reset: number) => Record<string, string>;
  deprecationHeaders: (replacedBy: OperationId) => Record<string, string>;
  /** A list answer: unknown query names and list errors become 400 problems. */
  listRoute: (
    c: AppContext,
    id: OperationId,
    run: () => { body: unknown; headers?: Record<string, string> },
  ) => Response;
}

export function createRouting(ctx: SandboxContext): Routing {
  const problem: Routing['problem'] = (c, p, headers = {}) =>
    problemResponse(ctx.baseUrl, c.req.path, p, headers);
  return {
    problem,
    notFound: (c, what = 'playbook') =>
      problem(c, {
        status: 404,
        code: 'not_found',
        title: 'Not found',
        detail: `No ${what} with this id is visible to you.`,
      }),
    requireUser: (c, permission) => {
      const user = c.get('user');
      if (!user) {
        const sent = Boolean(c.req.header('authorization'));
        return problem(
          c,
          {
            status: 401,
            code: sent ? 'invalid_api_key' : 'missing_api_key',
            title: 'Unauthorized',
            detail: sent
              ? 'The API key is not valid or was revoked. Create a new one at /apikey.'
              : 'Send an API key as Authorization: Bearer <key>. Create one at /apikey.',
          },
          { 'WWW-Authenticate': 'Bearer realm="investing-agent"' },
        );
      }
      if (permission && !user.permissions.includes(permission)) {
        return problem(c, {
          status: 403,
          code: 'permission_denied',
          title: 'Forbidden',
          detail: `This key lacks the ${permission} permission.`,
        });
      }
      return user;
    },
    route: (id) => {
      const path = ctx.dialect.paths[id];
      return (ctx.dialect.customMethods ? routingPath(path) : path).replace(/\{(\w+)\}/g, ':$1');
    },
    playbookId: (c) => c.req.param(ctx.dialect.playbookParam) ?? '',
    rateHeaders: (remaining, reset) => ({
      'RateLimit-Policy': `"default";q=${ctx.buckets.quota};w=${ctx.buckets.windowSeconds}`,
      RateLimit: `"default";r=${remaining};t=${reset}`,
    }),
    deprecationHeaders: (replacedBy) => {
      const sunset = ctx.faults.sunset();
      return {
        // RFC 9745: the operation has been deprecated since this sandbox started serving it.
        Deprecation: `@${Math.floor(Date.parse('2025-01-01T00:00:00Z') / 1000)}`,
        Sunset: sunset.toUTCString(),
        Link: `<${ctx.baseUrl}/openapi.json#${replacedBy}>; rel="successor-version"`,
      };
    },
    listRoute: (c, id, run) => {
      try {
        rejectUnknownQuery(c, id);
        const result = run();
        return jsonResponse(200, result.body, result.headers);
      } catch (error) {
        if (error instanceof ListError) return problem(c, error.problem);
        throw error;
      }
    },
  };
}
