/** The REST API under /api/v1: auth, rate limits, faults, idempotent writes and every operation. */
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { streamSSE } from 'hono/streaming';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import type { AppContext, AppEnv, SandboxContext } from './context';
import { playbookPath, type OperationId } from './dialect';
import { CursorError, decodeCursor, encodeCursor } from './cursor';
import { executeGraphql } from './graphql';
import {
  accountLinkUrl,
  giantSseEvents,
  hostileApiHeaders,
  hostileEventData,
  keyEchoDetail,
} from './hostile';
import { ListError, pagePlaybooks, parseLimit, parseVisibility } from './lists';
import {
  badRequest,
  canonicalJson,
  jsonResponse,
  problemResponse,
  readJsonBody,
  type ProblemDetails,
} from './http';
import {
  batchGetBody,
  componentSchemas,
  brokerageLinkBody,
  checkoutBody,
  createPlaybookBody,
  emptyBody,
  runBacktestBody,
  updatePlaybookBody,
} from './schemas';
import { eventSeq, type Playbook, type User } from './store';

export const EXPOSED_HEADERS = [
  'ETag',
  'Retry-After',
  'RateLimit',
  'RateLimit-Policy',
  'RateLimit-Reset',
  'Idempotent-Replayed',
  'Deprecation',
  'Sunset',
  'Link',
  'Location',
];
export const ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'If-Match',
  'If-None-Match',
  'Idempotency-Key',
  'Last-Event-ID',
  'Accept',
];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const OVERSIZE_PADDING_BYTES = 5 * 1024 * 1024 + 4096;
const EVENT_LIMIT_DEFAULT = 50;
const SSE_FLOOD_CHUNK = 64 * 1024;
const graphqlRequestBody = componentSchemas.GraphQLRequest.strict();

const KNOWN_QUERY: Partial<Record<OperationId, string[]>> = {
  listPlaybooks: ['limit', 'cursor', 'visibility'],
  listPlaybooksLegacy: ['limit', 'cursor', 'visibility'],
  listPublicPlaybooks: ['limit', 'cursor'],
  listEvents: ['limit', 'cursor'],
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

/** The result of a committed write: what the client sees and what a replay returns. */
interface WriteResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

function backtestSummary(
  playbookId: string,
  start: string,
  end: string,
  benchmark: string,
): Record<string, unknown> {
  const digest = createHash('sha256').update(`${playbookId}:${start}:${end}:${benchmark}`).digest();
  const pct = (byte: number, spread: number, offset: number) =>
    Math.round(((byte / 255) * spread + offset) * 10) / 10;
  return {
    start,
    end,
    benchmark,
    total_return: pct(digest[0], 80, -20),
    benchmark_return: pct(digest[1], 50, -10),
    max_drawdown: -pct(digest[2], 35, 5),
    sharpe: Math.round(((digest[3] / 255) * 2.2 - 0.3) * 100) / 100,
    trades: 12 + (digest[4] % 200),
  };
}

export function createApi(ctx: SandboxContext): Hono<AppEnv> {
  const api = new Hono<AppEnv>();
  const problem = (c: { req: { path: string } }, p: ProblemDetails, headers: Record<string, string> = {}) =>
    problemResponse(ctx.baseUrl, c.req.path, p, headers);
  const notFound = (c: AppContext, what = 'playbook') =>
    problem(c, {
      status: 404,
      code: 'not_found',
      title: 'Not found',
      detail: `No ${what} with this id is visible to you.`,
    });

  api.use(
    '*',
    cors({
      origin: (origin) => origin || '*',
      allowMethods: ['GET', 'HEAD', 'POST', 'PATCH', 'OPTIONS'],
      allowHeaders: ALLOWED_HEADERS,
      exposeHeaders: EXPOSED_HEADERS,
      maxAge: 600,
    }),
  );

  // Hostile headers on every answer, the faults' own answers included.
  api.use('*', async (c, next) => {
    await next();
    if (!ctx.faults.config.hostileHeaders) return;
    for (const [name, value] of Object.entries(hostileApiHeaders(ctx.baseUrl)))
      c.res.headers.set(name, value);
  });

  // Faults that act before the request is served; counters count API requests only.
  api.use('*', async (c, next) => {
    const faults = ctx.faults;
    if (faults.config.latencyMs > 0)
      await sleep(faults.config.latencyMs, undefined, { signal: ctx.closing }).catch(() => undefined);
    if (faults.take('resetConnection')) {
      c.env.incoming.socket.destroy();
      return new Response(null, { status: 499 });
    }
    if (faults.config.timeoutMs > 0 && faults.take('timeoutRequests')) {
      await sleep(faults.config.timeoutMs, undefined, { signal: ctx.closing }).catch(() => undefined);
    }
    if (faults.take('rateLimitBurst')) {
      const seconds = faults.config.retryAfterSeconds;
      const headers: Record<string, string> = {
        'RateLimit-Reset': String(seconds),
        ...rateHeaders(0, seconds),
      };
      if (faults.config.retryAfterMode === 'seconds') headers['Retry-After'] = String(seconds);
      if (faults.config.retryAfterMode === 'http-date')
        headers['Retry-After'] = new Date(Date.now() + seconds * 1000).toUTCString();
      return problem(
        c,
        {
          status: 429,
          code: 'rate_limited',
          title: 'Too many requests',
          detail: 'The rate limit for this key is exhausted; wait before retrying.',
        },
        headers,
      );
    }
    if (faults.serverErrorNow()) {
      return problem(
        c,
        {
          status: 503,
          code: 'service_unavailable',
          title: 'Service unavailable',
          detail: 'Injected fault: the service is briefly unavailable.',
        },
        { 'Retry-After': '1', ...rateHeaders(0, 1) },
      );
    }
    await next();
  });

  const rateHeaders = (remaining: number, reset: number): Record<string, string> => ({
    'RateLimit-Policy': `"default";q=${ctx.buckets.quota};w=${ctx.buckets.windowSeconds}`,
    RateLimit: `"default";r=${remaining};t=${reset}`,
  });

  // Authentication (resolved, not yet enforced) and the per-key token bucket.
  api.use('*', async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const user = match ? ctx.store.userForKey(match[1]) : null;
    c.set('user', user);
    c.set('apiKey', user && match ? match[1] : null);
    if (user && match && ctx.faults.take('echoKeyInProblem')) {
      const detail = keyEchoDetail(match[1], ctx.faults.config.echoKeyPadding);
      // 403 carries no errors[]: clients show the detail itself, where a cut can land inside the key.
      return problem(c, { status: 403, code: 'forbidden', title: 'Forbidden', detail });
    }
    const bucketId =
      user && match
        ? `key:${createHash('sha256').update(match[1]).digest('hex')}`
        : `ip:${c.env.incoming.socket.remoteAddress ?? 'unknown'}`;
    const decision = ctx.buckets.consume(bucketId);
    const headers = rateHeaders(decision.remaining, decision.resetSeconds);
    if (!decision.allowed) {
      return problem(
        c,
        {
          status: 429,
          code: 'rate_limited',
          title: 'Too many requests',
          detail: `The limit of ${ctx.buckets.quota} requests per ${ctx.buckets.windowSeconds} s is exhausted.`,
        },
        {
          ...headers,
          'Retry-After': String(decision.retryAfterSeconds),
          'RateLimit-Reset': String(decision.retryAfterSeconds),
        },
      );
    }
    await next();
    for (const [name, value] of Object.entries(headers))
      if (!c.res.headers.has(name)) c.res.headers.set(name, value);
  });

  // Faults that spoil an answer after it was produced.
  api.use('*', async (c, next) => {
    await next();
    const type = c.res.headers.get('content-type') ?? '';
    if (!type.startsWith('application/json')) return;
    const isList =
      c.req.method === 'GET' &&
      (['listPlaybooks', 'listPlaybooksLegacy', 'listPublicPlaybooks', 'listEvents'] as const).some(
        (id) => c.req.path === `${ctx.dialect.apiPrefix}${ctx.dialect.paths[id]}`,
      );
    if (isList && ctx.faults.take('oversizedResponse')) {
      const text = await c.res.text();
      c.res = new Response(text + ' '.repeat(OVERSIZE_PADDING_BYTES), {
        status: c.res.status,
        headers: c.res.headers,
      });
      c.res.headers.delete('content-length');
    }
    if (ctx.faults.take('malformedJson')) {
      const text = await c.res.text();
      c.res = new Response(text.slice(0, Math.max(1, Math.floor(text.length / 2))), {
        status: c.res.status,
        headers: c.res.headers,
      });
      c.res.headers.delete('content-length');
    }
    if (ctx.faults.take('wrongContentType')) c.res.headers.set('Content-Type', 'text/html; charset=utf-8');
  });

  const requireUser = (c: AppContext, permission?: string): User | Response => {
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
  };

  const route = (id: OperationId) => ctx.dialect.paths[id].replace(/\{(\w+)\}/g, ':$1');
  /** The playbook id from the path, under the dialect's parameter name. */
  const playbookId = (c: AppContext) => c.req.param(ctx.dialect.playbookParam) ?? '';

  const deprecationHeaders = (replacedBy: OperationId): Record<string, string> => {
    const sunset = ctx.faults.sunset();
    return {
      // RFC 9745: the operation has been deprecated since this sandbox started serving it.
      Deprecation: `@${Math.floor(Date.parse('2025-01-01T00:00:00Z') / 1000)}`,
      Sunset: sunset.toUTCString(),
      Link: `<${ctx.baseUrl}/openapi.json#${replacedBy}>; rel="successor-version"`,
    };
  };

  const listRoute = (
    c: AppContext,
    id: OperationId,
    run: () => { body: unknown; headers?: Record<string, string> },
  ) => {
    try {
      rejectUnknownQuery(c, id);
      const result = run();
      return jsonResponse(200, result.body, result.headers);
    } catch (error) {
      if (error instanceof ListError) return problem(c, error.problem);
      throw error;
    }
  };

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

  /** The idempotent write protocol of CONTRACT.md section 3 around one operation. */
  const write = async <T>(
    c: AppContext,
    id: OperationId,
    permission: string,
    schema: z.ZodType<T>,
    perform: (user: User, body: T) => WriteResult,
    options: { allowEmpty?: boolean } = {},
  ): Promise<Response> => {
    const user = requireUser(c, permission);
    if (user instanceof Response) return user;
    const rawKey = c.req.header('idempotency-key');
    if (rawKey === undefined)
      return problem(
        c,
        badRequest('Writes need an Idempotency-Key header (a UUID).', 'idempotency_key_required', [
          { path: 'Idempotency-Key', message: 'required' },
        ]),
      );
    const key = rawKey.trim().replace(/^"(.*)"$/, '$1');
    if (!UUID.test(key))
      return problem(
        c,
        badRequest('Idempotency-Key must be a UUID.', 'invalid_idempotency_key', [
          { path: 'Idempotency-Key', message: 'not a UUID' },
        ]),
      );
    const body = await readJsonBody(c, schema, options);
    if (!body.ok) return problem(c, body.problem);
    const bodyHash = createHash('sha256')
      .update(canonicalJson({ path: c.req.path, body: body.raw }))
      .digest('hex');
    const existing = ctx.store.getIdempotency(user.id, id, key);
    if (existing && existing.bodyHash !== bodyHash) {
      return problem(c, {
        status: 422,
        code: 'idempotency_key_reused',
        title: 'Idempotency key reused',
        detail: 'This Idempotency-Key was already used with a different body.',
      });
    }
    if (existing?.state === 'done') {
      return new Response(existing.response.body, {
        status: existing.response.status,
        headers: { ...existing.response.headers, 'Idempotent-Replayed': 'true' },
      });
    }
    if (existing || !ctx.store.claimIdempotency(user.id, id, key, bodyHash)) {
      return problem(
        c,
        {
          status: 409,
          code: 'idempotency_in_flight',
          title: 'Conflict',
          detail: 'A request with this Idempotency-Key is still being processed; retry later.',
        },
        { 'Retry-After': '1' },
      );
    }
    let committed: Response;
    try {
      if (ctx.faults.config.writeHoldMs > 0)
        await sleep(ctx.faults.config.writeHoldMs, undefined, { signal: ctx.closing }).catch(() => undefined);
      committed = ctx.store.transaction(() => {
        const result = withForeignAccountUrls(id, user, perform(user, body.value));
        const isProblem = result.status >= 400;
        const headers = {
          'Content-Type': isProblem ? 'application/problem+json' : 'application/json',
          'Cache-Control': 'no-store',
          ...(result.headers ?? {}),
        };
        const text = JSON.stringify(result.body);
        if (isProblem) ctx.store.releaseIdempotency(user.id, id, key);
        else ctx.store.completeIdempotency(user.id, id, key, { status: result.status, headers, body: text });
        return new Response(text, { status: result.status, headers });
      });
    } catch (error) {
      ctx.store.releaseIdempotency(user.id, id, key);
      throw error;
    }
    if (committed.status < 400 && ctx.faults.take('serverErrorAfterCommit')) {
      return problem(c, {
        status: 500,
        code: 'internal_error',
        title: 'Internal server error',
        detail: 'Injected fault: the write committed but the answer was lost.',
      });
    }
    return committed;
  };

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

  const visibleTo = (playbook: Playbook | null, user: User): playbook is Playbook =>
    Boolean(playbook && (playbook.owner.id === user.id || playbook.visibility !== 'private'));

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

  api.get(route('streamEvents'), (c) => {
    const user = requireUser(c, 'playbooks:read');
    if (user instanceof Response) return user;
    const lastEventId = c.req.header('last-event-id');
    let position = ctx.store.latestEventSeq();
    if (lastEventId !== undefined && lastEventId !== '') {
      const seq = eventSeq(lastEventId);
      if (seq === null)
        return problem(
          c,
          badRequest('Last-Event-ID is not an event id this service issued.', 'invalid_last_event_id', [
            { path: 'Last-Event-ID', message: 'unknown event id' },
          ]),
        );
      position = seq;
    }
    return streamSSE(c, async (stream) => {
      const flood = ctx.faults.config.sseNoNewlineBytes;
      if (flood > 0) {
        // Bytes and never a newline, until the bound: then the sandbox ends the stream itself.
        let aborted = ctx.closing.aborted;
        stream.onAbort(() => void (aborted = true));
        await stream.write('data: ');
        for (let sent = 6; sent < flood && !aborted && !ctx.closing.aborted; sent += SSE_FLOOD_CHUNK) {
          await stream.write('x'.repeat(Math.min(SSE_FLOOD_CHUNK, flood - sent)));
          await sleep(5);
        }
        return;
      }
      let pending = Promise.resolve();
      const flush = () => {
        pending = pending.then(async () => {
          for (;;) {
            const page = ctx.store.eventsAfter(user.id, position, 100);
            for (const event of page.events) {
              const sent = ctx.faults.config.hostileEventText
                ? { ...event, data: hostileEventData(event.data) }
                : event;
              await stream.writeSSE({ event: event.type, id: event.id, data: JSON.stringify(sent) });
              position = eventSeq(event.id)!;
            }
            if (!page.hasMore) break;
          }
        });
        return pending;
      };
      const off = ctx.store.onEvent((ownerId) => {
        if (ownerId === user.id) void flush().catch(() => undefined);
      });
      const heartbeat = setInterval(
        () => void stream.write(': heartbeat\n\n').catch(() => undefined),
        15_000,
      );
      try {
        await stream.write(': connected\n\n');
        if (ctx.faults.config.sseGiantEvent) await stream.write(giantSseEvents());
        await flush();
        await new Promise<void>((resolve) => {
          stream.onAbort(resolve);
          if (ctx.closing.aborted) resolve();
          ctx.closing.addEventListener('abort', () => resolve(), { once: true });
        });
      } finally {
        off();
        clearInterval(heartbeat);
      }
    });
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
      const backtestId = ctx.store.createBacktest(user.id, found.id, {
        start: body.start,
        end: body.end,
        benchmark,
      });
      const timer = setTimeout(() => {
        ctx.timers.delete(timer);
        if (ctx.closing.aborted) return;
        const summary = {
          backtest_id: backtestId,
          ...backtestSummary(found.id, body.start, body.end, benchmark),
        };
        ctx.store.transaction(() => {
          ctx.store.completeBacktest(backtestId, summary);
          ctx.store.appendEvent(user.id, 'backtest.completed', found.id, summary);
        });
      }, ctx.backtestDelayMs);
      ctx.timers.add(timer);
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

  api.get(route('listEvents'), (c) => {
    const user = requireUser(c, 'playbooks:read');
    if (user instanceof Response) return user;
    return listRoute(c, 'listEvents', () => {
      const limit = parseLimit(
        c.req.query('limit'),
        Math.min(EVENT_LIMIT_DEFAULT, ctx.dialect.limits.max),
        ctx.dialect.limits,
      );
      const cursor = c.req.query('cursor');
      let after = 0;
      if (cursor !== undefined) {
        try {
          after = decodeCursor(cursor, 'events', user.id);
        } catch (error) {
          if (error instanceof CursorError)
            throw new ListError(
              badRequest(error.message, 'invalid_cursor', [{ path: 'cursor', message: error.message }]),
            );
          throw error;
        }
      }
      const page = ctx.store.eventsAfter(user.id, after, limit);
      return {
        body: {
          data: ctx.faults.config.hostileEventText
            ? page.events.map((event) => ({ ...event, data: hostileEventData(event.data) }))
            : page.events,
          has_more: page.hasMore,
          next_cursor: encodeCursor('events', user.id, page.lastSeq),
        },
      };
    });
  });

  api.post(route('graphql'), async (c) => {
    const user = requireUser(c, 'playbooks:read');
    if (user instanceof Response) return user;
    const body = await readJsonBody(c, graphqlRequestBody);
    if (!body.ok) return problem(c, body.problem);
    const result = await executeGraphql(ctx, user, body.value);
    return jsonResponse(200, result);
  });

  api.all('*', (c) =>
    problem(c, {
      status: 404,
      code: 'no_such_operation',
      title: 'Not found',
      detail: `No operation answers ${c.req.method} ${c.req.path}. See /openapi.json.`,
    }),
  );

  api.onError((error, c) => {
    ctx.reportError('sandbox.api.error', error);
    return problem(c, {
      status: 500,
      code: 'internal_error',
      title: 'Internal server error',
      detail: 'The sandbox failed to answer; see its console.',
    });
  });

  return api;
}
