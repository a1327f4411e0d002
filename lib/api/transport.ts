/**
 * The transport: one attempt of one planned request. This file alone decides where the API key
 * may go: only to the configured API origin, only over https (plain http only to a loopback host),
 * never along a redirect that leaves the origin, never in a header a caller set. It also bounds
 * each attempt in time (attemptSignal.ts) and reads the answer within a byte limit
 * (responseReading.ts). Retries live in sending.ts, operation lookup in operationLookup.ts,
 * coalescing in reads.ts; this file sends exactly what it is handed, once.
 */
import { t } from '@/lib/i18n';
import type { z } from 'zod';
import { log } from '@/lib/log';
import { serviceUrlProblem } from '@/lib/contract/origins';
import { attemptAbort, cancelled, timedOut, type AttemptAbort } from './attemptSignal';
import { noticeFromHeaders, type DeprecationNotice } from './deprecations';
import { ApiError, isApiError } from './errors';
import type { ResolvedOperation } from './operations';
import type { RateLimitGate } from './rateLimit';
import { discardBody, settleResponse } from './responseReading';

export { cancelled } from './attemptSignal';

export interface ApiResponse<T> {
  /** The operation that was called (the replacement when the requested one is deprecated). */
  operationId: string;
  status: number;
  data: T;
  etag?: string;
  /** The write had already been committed: this is its stored response (Idempotent-Replayed). */
  idempotentReplayed: boolean;
  notModified: boolean;
  warnings: string[];
}

/** One request, fully decided before it is sent: the transport adds only Accept, Content-Type and the key. */
export interface RequestPlan {
  operation: ResolvedOperation;
  url: string;
  bodyText?: string;
  /** The caller's headers, already checked by `callerHeaders`. */
  headers: Record<string, string>;
  signal?: AbortSignal;
  idempotencyKey?: string;
  expect: 'json' | 'stream';
  /** The shape to check the body against: the requested operation's, else the resolved one's. */
  responseSchema?: z.ZodType;
}

export type AttemptResult = ApiResponse<unknown> & { response?: Response };

export interface TransportDeps {
  /** The origin of the configured API URL: the only one that ever sees the key. */
  apiOrigin: string;
  /** Where /apikey lives, for the 401 message. */
  siteUrl: string;
  fetch: typeof fetch;
  now: () => number;
  /** A signal that aborts after `ms`, for tests; without it each attempt runs a timer it clears when it ends. */
  timeoutSignal?: (ms: number) => AbortSignal;
  /** Per attempt, until the whole body is read (a stream is exempt once its headers are in). */
  attemptTimeoutMs: number;
  maxBodyBytes: number;
  /** Every attempt waits its turn here and reports the rate-limit headers it saw. */
  gate: RateLimitGate;
  /** Deprecation and Sunset headers seen on an answer. */
  noteDeprecation: (notice: DeprecationNotice) => void;
}

export interface Transport {
  /** Refuses an operation the document points at another origin, before any key is read. */
  refuseForeignServer: (operation: ResolvedOperation) => void;
  /** One attempt: fetch (following only same-origin redirects), then a result or an ApiError. */
  attempt: (plan: RequestPlan, key: string | undefined) => Promise<AttemptResult>;
}

/** Headers a caller may never set: credentials and what the client itself decides. */
const RESERVED_HEADERS =
  /^(authorization|cookie|proxy-authorization|host|idempotency-key|content-type|content-length|origin)$/i;
const MAX_REDIRECTS = 3;

function originOf(url: string): string {
  return new URL(url).origin;
}

/** A caller's extra headers (If-None-Match, Last-Event-ID…); credentials cannot be smuggled in here. */
export function callerHeaders(
  operationId: string,
  headers: Record<string, string> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (RESERVED_HEADERS.test(name)) {
      throw new ApiError({
        kind: 'validation',
        operationId,
        message: t('errors.api.notSent', {
          operation: operationId,
          reason: t('errors.api.reservedHeader', { header: name }),
        }),
      });
    }
    out[name] = value;
  }
  return out;
}

/** Where one hop of an attempt goes, and how: a redirect may change all three. */
interface Hop {
  url: string;
  method: string;
  bodyText: string | undefined;
}

/**
 * The headers of one hop. Origin pinning: the key is attached only for this exact origin,
 * checked on every hop.
 */
function hopHeaders(
  plan: RequestPlan,
  hop: Hop,
  requestOrigin: string,
  key: string | undefined,
  apiOrigin: string,
) {
  const headers = new Headers(plan.headers);
  headers.set(
    'Accept',
    plan.expect === 'stream' ? 'text/event-stream' : 'application/json, application/problem+json',
  );
  if (hop.bodyText !== undefined) headers.set('Content-Type', 'application/json');
  if (plan.idempotencyKey) headers.set('Idempotency-Key', plan.idempotencyKey);
  if (key !== undefined && requestOrigin === apiOrigin) headers.set('Authorization', `Bearer ${key}`);
  return headers;
}

/** Nothing goes over plain http to a non-loopback host, whatever a redirect or document says. */
function refuseInsecureHop(url: string, operationId: string): void {
  if (serviceUrlProblem(url) === undefined) return;
  throw new ApiError({
    kind: 'origin-refused',
    operationId,
    message: t('errors.api.notSent', {
      operation: operationId,
      reason: t('errors.settings.insecure'),
    }),
  });
}

/** The one fetch of a hop: never a cookie, never the HTTP cache, never a redirect followed unseen. */
async function fetchHop(
  fetchFn: typeof fetch,
  hop: Hop,
  headers: Headers,
  abort: AttemptAbort,
  plan: RequestPlan,
): Promise<Response> {
  const operationId = plan.operation.operationId;
  try {
    return await fetchFn(hop.url, {
      method: hop.method,
      headers,
      body: hop.bodyText,
      redirect: 'manual',
      credentials: 'omit',
      cache: 'no-store',
      signal: abort.signal,
    });
  } catch {
    if (plan.signal?.aborted) throw cancelled(operationId);
    if (abort.timedOut()) throw timedOut(operationId);
    throw new ApiError({
      kind: 'network',
      operationId,
      message: t('errors.api.unreachable', { operation: operationId }),
    });
  }
}

/**
 * The redirect rule: the next hop when `response` is a redirect to the API origin, undefined when it
 * is no redirect; a redirect anywhere else (or unreadable, or one too many) is refused.
 */
async function redirectHop(
  response: Response,
  hop: Hop,
  hopNumber: number,
  apiOrigin: string,
  operationId: string,
): Promise<Hop | undefined> {
  const isRedirect =
    response.type === 'opaqueredirect' ||
    (response.status >= 300 && response.status < 400 && response.status !== 304);
  if (!isRedirect) return undefined;
  const location = response.headers.get('location');
  await discardBody(response);
  const target = location ? new URL(location, hop.url) : undefined;
  if (!target || target.origin !== apiOrigin || hopNumber >= MAX_REDIRECTS) {
    throw new ApiError({
      kind: 'origin-refused',
      operationId,
      status: response.status || undefined,
      message: target
        ? t('errors.api.redirectAway', { operation: operationId, origin: target.origin, apiOrigin })
        : t('errors.api.redirectOpaque', { operation: operationId, apiOrigin }),
    });
  }
  const becomesGet =
    response.status === 303 ||
    ((response.status === 301 || response.status === 302) && hop.method === 'POST');
  return becomesGet ? { url: target.href, method: 'GET', bodyText: undefined } : { ...hop, url: target.href };
}

/** A fetch that followed a redirect on its own must not have left the origin either. */
async function refuseForeignAnswer(
  response: Response,
  hop: Hop,
  requestOrigin: string,
  apiOrigin: string,
  operationId: string,
): Promise<void> {
  const answerOrigin = response.url === hop.url ? requestOrigin : response.url && originOf(response.url);
  if (!answerOrigin || answerOrigin === apiOrigin) return;
  await discardBody(response);
  throw new ApiError({
    kind: 'origin-refused',
    operationId,
    message: t('errors.api.foreignAnswer', {
      operation: operationId,
      origin: answerOrigin,
      apiOrigin,
    }),
  });
}

/** Refuses an operation the document points at another origin; one document has one server URL, parsed once. */
function foreignServerCheck(apiOrigin: string): (operation: ResolvedOperation) => void {
  let checkedServer: { url: string; origin: string } | undefined;
  return (operation) => {
    if (checkedServer?.url !== operation.serverUrl)
      checkedServer = { url: operation.serverUrl, origin: originOf(operation.serverUrl) };
    const serverOrigin = checkedServer.origin;
    if (serverOrigin === apiOrigin) return;
    throw new ApiError({
      kind: 'origin-refused',
      operationId: operation.operationId,
      message: t('errors.api.foreignServer', {
        operation: operation.operationId,
        origin: serverOrigin,
        apiOrigin,
      }),
    });
  };
}

export function createTransport(deps: TransportDeps): Transport {
  const { apiOrigin, now, gate } = deps;
  const refuseForeignServer = foreignServerCheck(apiOrigin);

  /** One hop: sent, logged, and its rate-limit and deprecation headers noted, whatever it answered. */
  async function sendHop(
    plan: RequestPlan,
    hop: Hop,
    hopNumber: number,
    key: string | undefined,
    abort: AttemptAbort,
  ) {
    const { operation } = plan;
    const operationId = operation.operationId;
    const requestOrigin = originOf(hop.url);
    const headers = hopHeaders(plan, hop, requestOrigin, key, apiOrigin);
    refuseInsecureHop(hop.url, operationId);
    const startedAt = now();
    const response = await fetchHop(deps.fetch, hop, headers, abort, plan);
    log.info('api.response', {
      operationId,
      method: hop.method,
      status: response.status,
      ms: now() - startedAt,
      hop: hopNumber,
    });
    const heldUntil = gate.observe(response.status, response.headers);
    const notice = noticeFromHeaders(operationId, response.headers, hop.url, now());
    if (notice) deps.noteDeprecation({ ...notice, replacedBy: operation.replacedBy });
    return { response, heldUntil, requestOrigin };
  }

  async function attempt(plan: RequestPlan, key: string | undefined): Promise<AttemptResult> {
    const operationId = plan.operation.operationId;
    await gate.waitTurn(operationId, plan.signal);
    const abort = attemptAbort(deps.attemptTimeoutMs, deps.timeoutSignal, plan.signal);
    let keepCallerSignal = false;
    try {
      let hop: Hop = { url: plan.url, method: plan.operation.method, bodyText: plan.bodyText };
      for (let hopNumber = 0; ; hopNumber++) {
        const { response, heldUntil, requestOrigin } = await sendHop(plan, hop, hopNumber, key, abort);
        const next = await redirectHop(response, hop, hopNumber, apiOrigin, operationId);
        if (next) {
          hop = next;
          continue;
        }
        await refuseForeignAnswer(response, hop, requestOrigin, apiOrigin, operationId);
        const result = await settleResponse(plan, response, heldUntil, deps);
        if (plan.expect === 'stream') {
          abort.detachTimeout();
          keepCallerSignal = true;
        }
        return result;
      }
    } catch (error) {
      if (!isApiError(error) && abort.timedOut()) throw timedOut(operationId);
      if (!isApiError(error) && plan.signal?.aborted) throw cancelled(operationId);
      throw error;
    } finally {
      if (!keepCallerSignal) abort.dispose();
    }
  }

  return { refuseForeignServer, attempt };
}
