/**
 * The transport: one attempt of one planned request. This file alone decides where the API key
 * may go: only to the configured API origin, only over https (plain http only to a loopback host),
 * never along a redirect that leaves the origin, never in a header a caller set. It also bounds
 * each attempt in time and reads the answer within a byte limit. Retries, operation lookup and
 * coalescing live in client.ts; this file sends exactly what it is handed, once.
 */
import { t } from '@/lib/i18n';
import type { z } from 'zod';
import { log } from '@/lib/log';
import { serviceUrlProblem } from '@/lib/contract/origins';
import { noticeFromHeaders, type DeprecationNotice } from './deprecations';
import { ApiError, errorFromStatus, isApiError } from './errors';
import type { ResolvedOperation } from './operations';
import type { RateLimitGate } from './rateLimit';
import { problemSchema, type Problem } from './schemas';
import { isJsonContentType, parseKnownShape, readJsonBody } from './validate';

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

export function cancelled(operationId: string): ApiError {
  return new ApiError({
    kind: 'network',
    operationId,
    message: t('errors.api.cancelled', { operation: operationId }),
  });
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

/**
 * Aborts on the caller's signal or the attempt timeout; the timeout can be detached once a stream
 * is open. The timeout is a plain timer, cleared when the attempt ends: AbortSignal.timeout and a
 * listener on it cost some 10 µs per request, and these are paid on every page of a walk.
 */
function attemptAbort(
  timeoutMs: number,
  timeoutSignal: ((ms: number) => AbortSignal) | undefined,
  caller: AbortSignal | undefined,
) {
  const controller = new AbortController();
  let timedOut = false;
  const onTimeout = (reason: unknown) => {
    timedOut = true;
    controller.abort(reason);
  };
  const onCaller = () => controller.abort(caller?.reason);
  let stopTimeout: () => void;
  if (timeoutSignal) {
    const timeout = timeoutSignal(timeoutMs);
    const onTimeoutSignal = () => onTimeout(timeout.reason);
    if (timeout.aborted) onTimeoutSignal();
    else timeout.addEventListener('abort', onTimeoutSignal, { once: true });
    stopTimeout = () => timeout.removeEventListener('abort', onTimeoutSignal);
  } else {
    const timer = setTimeout(
      () => onTimeout(new DOMException('The attempt timed out.', 'TimeoutError')),
      timeoutMs,
    );
    stopTimeout = () => clearTimeout(timer);
  }
  if (caller?.aborted) onCaller();
  else caller?.addEventListener('abort', onCaller, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    detachTimeout: stopTimeout,
    dispose: () => {
      stopTimeout();
      caller?.removeEventListener('abort', onCaller);
    },
  };
}

function timedOut(operationId: string): ApiError {
  return new ApiError({
    kind: 'timeout',
    operationId,
    message: t('errors.api.timeout', { operation: operationId }),
  });
}

async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

export function createTransport(deps: TransportDeps): Transport {
  const { apiOrigin, now, gate } = deps;

  // One document has one server URL: its origin is parsed once, not on every call.
  let checkedServer: { url: string; origin: string } | undefined;

  function refuseForeignServer(operation: ResolvedOperation): void {
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
  }

  async function readProblem(response: Response, operationId: string): Promise<Problem | undefined> {
    if (!isJsonContentType(response.headers.get('content-type'))) {
      await discardBody(response);
      return undefined;
    }
    try {
      const parsed = problemSchema.safeParse(await readJsonBody(response, operationId, deps.maxBodyBytes));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  async function attempt(plan: RequestPlan, key: string | undefined): Promise<AttemptResult> {
    const { operation } = plan;
    const operationId = operation.operationId;
    await gate.waitTurn(operationId, plan.signal);
    const abort = attemptAbort(deps.attemptTimeoutMs, deps.timeoutSignal, plan.signal);
    let keepCallerSignal = false;
    try {
      let url = plan.url;
      let method: string = operation.method;
      let bodyText = plan.bodyText;
      for (let hop = 0; ; hop++) {
        const headers = new Headers(plan.headers);
        headers.set(
          'Accept',
          plan.expect === 'stream' ? 'text/event-stream' : 'application/json, application/problem+json',
        );
        if (bodyText !== undefined) headers.set('Content-Type', 'application/json');
        if (plan.idempotencyKey) headers.set('Idempotency-Key', plan.idempotencyKey);
        // Origin pinning: the key is attached only for this exact origin, checked on every hop.
        const requestOrigin = originOf(url);
        if (key !== undefined && requestOrigin === apiOrigin) headers.set('Authorization', `Bearer ${key}`);
        // Nothing goes over plain http to a non-loopback host, whatever a redirect or document says.
        if (serviceUrlProblem(url) !== undefined) {
          throw new ApiError({
            kind: 'origin-refused',
            operationId,
            message: t('errors.api.notSent', {
              operation: operationId,
              reason: t('errors.settings.insecure'),
            }),
          });
        }
        const startedAt = now();
        let response: Response;
        try {
          response = await deps.fetch(url, {
            method,
            headers,
            body: bodyText,
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
        log.info('api.response', {
          operationId,
          method,
          status: response.status,
          ms: now() - startedAt,
          hop,
        });
        const heldUntil = gate.observe(response.status, response.headers);
        const notice = noticeFromHeaders(operationId, response.headers, url, now());
        if (notice) deps.noteDeprecation({ ...notice, replacedBy: operation.replacedBy });

        if (
          response.type === 'opaqueredirect' ||
          (response.status >= 300 && response.status < 400 && response.status !== 304)
        ) {
          const location = response.headers.get('location');
          await discardBody(response);
          const target = location ? new URL(location, url) : undefined;
          if (!target || target.origin !== apiOrigin || hop >= MAX_REDIRECTS) {
            throw new ApiError({
              kind: 'origin-refused',
              operationId,
              status: response.status || undefined,
              message: target
                ? t('errors.api.redirectAway', { operation: operationId, origin: target.origin, apiOrigin })
                : t('errors.api.redirectOpaque', { operation: operationId, apiOrigin }),
            });
          }
          if (
            response.status === 303 ||
            ((response.status === 301 || response.status === 302) && method === 'POST')
          ) {
            method = 'GET';
            bodyText = undefined;
          }
          url = target.href;
          continue;
        }
        // A fetch that followed a redirect on its own must not have left the origin either.
        const answerOrigin = response.url === url ? requestOrigin : response.url && originOf(response.url);
        if (answerOrigin && answerOrigin !== apiOrigin) {
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
        const result = await settle(plan, response, heldUntil);
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

  /** Turns a final (non-redirect) answer into a result, reading at most maxBodyBytes. */
  async function settle(
    plan: RequestPlan,
    response: Response,
    heldUntil: number | undefined,
  ): Promise<AttemptResult> {
    const operationId = plan.operation.operationId;
    const status = response.status;
    const base = {
      operationId,
      status,
      etag: response.headers.get('etag') ?? undefined,
      idempotentReplayed: (response.headers.get('idempotent-replayed') ?? '').trim().toLowerCase() === 'true',
      notModified: status === 304,
      warnings: plan.operation.warnings,
    };
    if (status === 304) return { ...base, data: undefined };
    if (status >= 200 && status < 300) {
      if (plan.expect === 'stream') {
        const type = response.headers.get('content-type') ?? '';
        if (!/^text\/event-stream\b/i.test(type)) {
          await discardBody(response);
          throw new ApiError({
            kind: 'malformed-response',
            operationId,
            status,
            message: t('errors.api.notEventStream', { operation: operationId, type: type.slice(0, 60) }),
          });
        }
        return { ...base, data: undefined, response };
      }
      const hasNoBody =
        status === 204 ||
        status === 205 ||
        plan.operation.method === 'HEAD' ||
        (response.headers.get('content-length') === '0' && !response.headers.get('content-type'));
      if (hasNoBody) {
        await discardBody(response);
        return { ...base, data: undefined };
      }
      const json = await readJsonBody(response, operationId, deps.maxBodyBytes);
      const data = plan.responseSchema
        ? parseKnownShape(plan.responseSchema, json, operationId, status)
        : json;
      return { ...base, data };
    }
    const problem = await readProblem(response, operationId);
    throw errorFromStatus({
      operationId,
      status,
      problem,
      siteUrl: deps.siteUrl,
      idempotent: plan.idempotencyKey !== undefined,
      retryAt: heldUntil,
    });
  }

  return { refuseForeignServer, attempt };
}
