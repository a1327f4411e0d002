/**
 * What runs around every API operation, in the order api.ts applies it: CORS, hostile headers,
 * faults before the answer, the caller and its token bucket, faults that spoil the answer.
 */
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppEnv, SandboxContext } from '../context';
import { hostileApiHeaders, keyEchoDetail } from '../hostile';
import type { Routing } from './routing';

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

const OVERSIZE_PADDING_BYTES = 5 * 1024 * 1024 + 4096;

/** Whether `path` is an instance of the path template `template` (`{name}` stands for one segment). */
function pathMatches(path: string, template: string): boolean {
  const pattern = template
    .split(/\{\w+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${pattern}$`).test(path);
}

/** Any origin may call the API: the key, not the origin, is the credential. */
export const apiCors = (): MiddlewareHandler<AppEnv> =>
  cors({
    origin: (origin) => origin || '*',
    allowMethods: ['GET', 'HEAD', 'POST', 'PATCH', 'OPTIONS'],
    allowHeaders: ALLOWED_HEADERS,
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });

/** Hostile headers on every answer, the faults' own answers included. */
export const hostileHeaders =
  (ctx: SandboxContext): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    await next();
    if (!ctx.faults.config.hostileHeaders) return;
    for (const [name, value] of Object.entries(hostileApiHeaders(ctx.baseUrl)))
      c.res.headers.set(name, value);
  };

/** Faults that act before the request is served; counters count API requests only. */
export const faultsBeforeAnswer =
  (ctx: SandboxContext, { problem, rateHeaders }: Routing): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const faults = ctx.faults;
    if (faults.config.latencyMs > 0)
      await sleep(faults.config.latencyMs, undefined, { signal: ctx.closing }).catch(() => undefined);
    const resettable = !faults.config.resetNonGetOnly || !['GET', 'HEAD'].includes(c.req.method);
    if (resettable && faults.take('resetConnection')) {
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
  };

/** Authentication (resolved, not yet enforced: routes call requireUser) and the per-key token bucket. */
export const callerAndRateLimit =
  (ctx: SandboxContext, { problem, rateHeaders }: Routing): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
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
  };

/** Faults that spoil a JSON answer after it was produced. */
export const faultsAfterAnswer =
  (ctx: SandboxContext): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    await next();
    const type = c.res.headers.get('content-type') ?? '';
    if (!type.startsWith('application/json')) return;
    const isList =
      c.req.method === 'GET' &&
      (
        [
          'listPlaybooks',
          'listPlaybooksLegacy',
          'listPublicPlaybooks',
          'listEvents',
          'listCatalysts',
          'listBacktests',
        ] as const
      ).some((id) => pathMatches(c.req.path, `${ctx.dialect.apiPrefix}${ctx.dialect.paths[id]}`));
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
  };
