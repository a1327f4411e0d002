/**
 * The HTTP client of the service's API. Every call is resolved by operationId from the OpenAPI
 * document, validated before it is sent, pinned to the configured API origin (the only place the
 * key ever goes), held back by the shared rate-limit gate, retried within a budget, and checked
 * on the way back. Writes go one at a time, and only as the intent stored in a claimed outbox
 * entry: the operation resolved again here must be the one the user confirmed, or nothing is sent.
 */
import { z } from 'zod';
import { log, registerSecret } from '@/lib/log';
import { assertServiceUrlAllowed, INSECURE_SETTINGS_MESSAGE, serviceUrlProblem } from '@/lib/store/settings';
import { ApiError, errorFromStatus, isApiError, scrubSecret, type ApiErrorData } from './errors';
import {
  assertUnambiguousDocument,
  buildOperationUrl,
  choosePageSize,
  pageSizeBounds,
  parseOpenApiDocument,
  resolveLocalRef,
  resolveOperation,
  type OpenApiDocument,
  type PageSizeBounds,
  type QueryValue,
  type ResolvedOperation,
  type UrlArguments,
} from './operations';
import { sessionHoldStore, sharedRateLimitGate, type RateLimitGate, type RateLimitState } from './rateLimit';
import {
  abortableSleep,
  DEFAULT_BACKOFF,
  MAX_IN_WORKER_WAIT_MS,
  RetryBudget,
  withRetries,
  type BackoffPolicy,
} from './retry';
import {
  DEFAULT_MAX_BODY_BYTES,
  isJsonContentType,
  parseKnownShape,
  readJsonBody,
  validateRequestBody,
} from './validate';
import {
  batchResultSchema,
  graphQLConnectionSchema,
  graphQLResponseSchema,
  knownResponseSchema,
  listPageSchema,
  problemSchema,
  type BatchItem,
  type GraphQLPlaybook,
  type KnownResponseOf,
  type Playbook,
  type Problem,
} from './schemas';
import { DeprecationRecord, noticeFromHeaders, type DeprecationNotice } from './deprecations';
import { getOutboxEntry, playbookIdOf, type OutboxEntry, type WriteDraft } from '@/lib/outbox';
import { fingerprintOfKey } from '@/lib/store/apiKey';
import {
  canonicalJson,
  describeResolution,
  WRITE_OPERATIONS,
  type WriteOperation,
  type WriteResolution,
} from './writeOperations';

export interface ApiClientDeps {
  /** The configured API URL ({api_url}); its origin is the only one that ever sees the key. */
  apiUrl: string;
  /** The site ({base_url}) where /apikey lives; defaults to the API URL's origin. */
  siteUrl?: string;
  /** The OpenAPI document as fetched by discovery. */
  openApi: unknown;
  /** Where the OpenAPI document came from, for relative `servers` URLs; defaults to apiUrl. */
  openApiUrl?: string;
  fetch: typeof fetch;
  getApiKey: () => Promise<string | undefined>;
  /** Reads an outbox entry as stored: write() sends only an entry the store holds as claimed. */
  outboxEntry?: (id: string) => Promise<OutboxEntry<WriteDraft> | undefined>;
  now?: () => number;
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A signal that aborts after `ms` (AbortSignal.timeout in production). */
  timeoutSignal?: (ms: number) => AbortSignal;
  /** Shared by every client of the same API origin; made here when absent. */
  rateLimitGate?: RateLimitGate;
  retryBudget?: RetryBudget;
  backoff?: Partial<BackoffPolicy>;
  /** Per attempt, until the whole body is read. */
  attemptTimeoutMs?: number;
  /** For the whole call, retries included: no attempt starts after it. */
  deadlineMs?: number;
  maxBodyBytes?: number;
  maxInWorkerWaitMs?: number;
}

export interface CallOptions extends UrlArguments {
  body?: unknown;
  /** Extra request headers such as If-None-Match or Last-Event-ID; credentials cannot be set here. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

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

export interface PaginateOptions {
  path?: UrlArguments['path'];
  query?: Record<string, QueryValue>;
  pageSize?: number;
  maxPages?: number;
  signal?: AbortSignal;
}

export type PageStopReason = 'end' | 'max-pages' | 'repeated-cursor' | 'missing-cursor';

export interface Page<T> {
  items: T[];
  pageNumber: number;
  /** The cursor this page was requested with. */
  cursor?: string;
  nextCursor: string | null;
  hasMore: boolean;
  /** Set on the last page the generator yields: why it stops. */
  stopReason?: PageStopReason;
  /** True only when the service said there is nothing more (never while has_more holds). */
  complete: boolean;
}

export interface GraphQLPaginateOptions {
  visibility?: 'private' | 'unlisted' | 'public';
  /** Continue after this cursor (an `endCursor` of an earlier page). */
  after?: string;
  pageSize?: number;
  maxPages?: number;
  signal?: AbortSignal;
}

export type BatchGetItem =
  | { id: string; status: 200; playbook: Playbook }
  | { id: string; status: 403 | 404; error: Problem }
  | { id: string; status: 'failed'; error: ApiErrorData };

/** An outbox entry claimed for sending (status `sending`) that carries the intent the user confirmed. */
export type ClaimedWrite = OutboxEntry<WriteDraft>;

/** A write as the document resolves it now, with what the confirm window should warn about. */
export interface WritePreview extends WriteResolution {
  warnings: string[];
  deprecated: boolean;
}

export interface ApiClient {
  call<K extends string>(operationId: K, options?: CallOptions): Promise<ApiResponse<KnownResponseOf<K>>>;
  /** Opens a streaming read (text/event-stream) and hands back the response once its headers are in. */
  stream(operationId: string, options?: CallOptions): Promise<Response>;
  paginate<T = unknown>(
    operationId: string,
    options?: PaginateOptions,
  ): AsyncGenerator<Page<T>, void, undefined>;
  paginateGraphQL(options?: GraphQLPaginateOptions): AsyncGenerator<Page<GraphQLPlaybook>, void, undefined>;
  batchGet(ids: string[], options?: { signal?: AbortSignal }): Promise<BatchGetItem[]>;
  /** How a write resolves in the current document: the operation itself, never its replacement. */
  resolveWrite(operationId: WriteOperation, playbookId?: string): WritePreview;
  /** Sends the confirmed intent of a claimed outbox entry, and nothing else. */
  write(entry: ClaimedWrite, options?: { signal?: AbortSignal }): Promise<ApiResponse<unknown>>;
  deprecations(): DeprecationNotice[];
  rateLimitState(): RateLimitState;
}

/** REST lists of playbooks whose GraphQL connection is equivalent. */
const PLAYBOOK_LISTS = new Set(['listPlaybooks', 'listPlaybooksLegacy']);

/** A GraphQL node in the REST shape (camelCase dates back to snake_case), so callers see one Playbook. */
function restPlaybookOf(node: GraphQLPlaybook): Playbook {
  const { createdAt, updatedAt, ...rest } = node;
  return { ...rest, created_at: createdAt, updated_at: updatedAt } as Playbook;
}

/** Operations that use POST but only read, per CONTRACT.md section 2. */
const READS_BY_POST = new Set(['batchGetPlaybooks', 'graphql']);
const SAFE_METHODS = new Set(['GET', 'HEAD']);
/** Headers a caller may never set: credentials and what the client itself decides. */
const RESERVED_HEADERS =
  /^(authorization|cookie|proxy-authorization|host|idempotency-key|content-type|content-length|origin)$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BATCH_CHUNK_MAX = 50;
const DEFAULT_MAX_PAGES = 10;
const HARD_MAX_PAGES = 100;
const MAX_REDIRECTS = 3;
const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;
const DEFAULT_DEADLINE_MS = 25_000;

const PLAYBOOKS_QUERY = `query Playbooks($first: Int, $after: String, $visibility: Visibility) {
  playbooks(first: $first, after: $after, visibility: $visibility) {
    edges { cursor node { id title thesis visibility status tickers createdAt updatedAt etag owner { id name } } }
    pageInfo { hasNextPage endCursor }
  }
}`;

function originOf(url: string): string {
  return new URL(url).origin;
}

/** Aborts on the caller's signal or the attempt timeout; the timeout can be detached once a stream is open. */
function attemptAbort(timeout: AbortSignal, caller: AbortSignal | undefined) {
  const controller = new AbortController();
  let timedOut = false;
  const onTimeout = () => {
    timedOut = true;
    controller.abort(timeout.reason);
  };
  const onCaller = () => controller.abort(caller?.reason);
  if (timeout.aborted) onTimeout();
  else timeout.addEventListener('abort', onTimeout, { once: true });
  if (caller?.aborted) onCaller();
  else caller?.addEventListener('abort', onCaller, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    detachTimeout: () => timeout.removeEventListener('abort', onTimeout),
    dispose: () => {
      timeout.removeEventListener('abort', onTimeout);
      caller?.removeEventListener('abort', onCaller);
    },
  };
}

/** Lets one caller stop waiting for a shared request without cancelling it for the others. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined, operationId: string): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelled(operationId));
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function cancelled(operationId: string): ApiError {
  return new ApiError({ kind: 'network', operationId, message: `${operationId} was cancelled.` });
}

interface ExecutePlan {
  operation: ResolvedOperation;
  url: string;
  bodyText?: string;
  headers: Record<string, string>;
  signal?: AbortSignal;
  idempotencyKey?: string;
  expect: 'json' | 'stream';
  /** The shape to check the body against: the requested operation's, else the resolved one's. */
  responseSchema?: z.ZodType;
}

type ExecuteResult = ApiResponse<unknown> & { response?: Response };

export function createApiClient(deps: ApiClientDeps): ApiClient {
  // No client exists for an API URL that would carry the key over plain http (point 4 of issue 11).
  assertServiceUrlAllowed(deps.apiUrl);
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const sleep = deps.sleep ?? abortableSleep;
  const timeoutSignal = deps.timeoutSignal ?? ((ms: number) => AbortSignal.timeout(ms));
  const apiOrigin = originOf(deps.apiUrl);
  const siteUrl = deps.siteUrl ?? apiOrigin;
  const documentUrl = deps.openApiUrl ?? deps.apiUrl;
  const maxInWorkerWaitMs = deps.maxInWorkerWaitMs ?? MAX_IN_WORKER_WAIT_MS;
  const policy: BackoffPolicy = { ...DEFAULT_BACKOFF, ...deps.backoff };
  const attemptTimeoutMs = deps.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
  const deadlineMs = deps.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const maxBodyBytes = deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const gate =
    deps.rateLimitGate ??
    sharedRateLimitGate({ origin: apiOrigin, now, sleep, holdStore: sessionHoldStore(), maxInWorkerWaitMs });
  const budget = deps.retryBudget ?? new RetryBudget({ capacity: 10, refillPerSecond: 0.5, now });
  const deprecationRecord = new DeprecationRecord();
  const inFlightReads = new Map<string, Promise<ExecuteResult>>();
  let writeChain: Promise<unknown> = Promise.resolve();
  let document: OpenApiDocument | undefined;

  function openApi(): OpenApiDocument {
    if (!document) {
      const parsed = parseOpenApiDocument(deps.openApi);
      assertUnambiguousDocument(parsed, WRITE_OPERATIONS);
      document = parsed;
    }
    return document;
  }

  function resolve(operationId: string): ResolvedOperation {
    const operation = resolveOperation(openApi(), operationId, now(), { documentUrl });
    if (operation.requestedOperationId !== operation.operationId) {
      noteDeprecation({
        operationId: operation.requestedOperationId,
        deprecated: true,
        replacedBy: operation.operationId,
        lastSeenAt: now(),
      });
    }
    if (operation.deprecated) {
      noteDeprecation({
        operationId: operation.operationId,
        deprecated: true,
        sunsetAt: operation.sunset?.getTime(),
        replacedBy: operation.replacedBy,
        lastSeenAt: now(),
      });
    }
    if (operation.warnings.length > 0) {
      log.warn('api.operation.warnings', {
        operationId,
        resolved: operation.operationId,
        warnings: operation.warnings,
      });
    }
    return operation;
  }

  function noteDeprecation(notice: DeprecationNotice): void {
    if (deprecationRecord.record(notice)) {
      log.warn('api.operation.deprecated', {
        operationId: notice.operationId,
        sunsetAt: notice.sunsetAt,
        replacedBy: notice.replacedBy,
      });
    }
  }

  function refuseForeignServer(operation: ResolvedOperation): void {
    const serverOrigin = originOf(operation.serverUrl);
    if (serverOrigin === apiOrigin) return;
    throw new ApiError({
      kind: 'origin-refused',
      operationId: operation.operationId,
      message: `${operation.operationId} was not sent: the OpenAPI document points it at ${serverOrigin}, which is not the configured API origin ${apiOrigin}. The extension only talks to, and sends the key to, the configured API origin.`,
    });
  }

  function callerHeaders(
    operationId: string,
    headers: Record<string, string> | undefined,
  ): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers ?? {})) {
      if (RESERVED_HEADERS.test(name)) {
        throw new ApiError({
          kind: 'validation',
          operationId,
          message: `${operationId} was not sent: the header ${name} is set by the client itself.`,
        });
      }
      out[name] = value;
    }
    return out;
  }

  async function keyFor(operation: ResolvedOperation): Promise<string | undefined> {
    if (!operation.requiresAuth) return undefined;
    const key = await deps.getApiKey();
    if (!key) {
      throw errorFromStatus({ operationId: operation.operationId, status: 401, siteUrl }).with({
        status: undefined,
      });
    }
    registerSecret(key);
    return key;
  }

  async function readProblem(response: Response, operationId: string): Promise<Problem | undefined> {
    if (!isJsonContentType(response.headers.get('content-type'))) {
      await response.body?.cancel().catch(() => undefined);
      return undefined;
    }
    try {
      const parsed = problemSchema.safeParse(await readJsonBody(response, operationId, maxBodyBytes));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  /** One attempt: fetch (following only same-origin redirects), then turn the answer into a result or an ApiError. */
  async function attemptOnce(plan: ExecutePlan, key: string | undefined): Promise<ExecuteResult> {
    const { operation } = plan;
    const operationId = operation.operationId;
    await gate.waitTurn(operationId, plan.signal);
    const abort = attemptAbort(timeoutSignal(attemptTimeoutMs), plan.signal);
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
        if (key !== undefined && originOf(url) === apiOrigin) headers.set('Authorization', `Bearer ${key}`);
        // Nothing goes over plain http to a non-loopback host, whatever a redirect or document says.
        if (serviceUrlProblem(url) !== undefined) {
          throw new ApiError({
            kind: 'origin-refused',
            operationId,
            message: `${operationId} was not sent: ${INSECURE_SETTINGS_MESSAGE}`,
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
          if (abort.timedOut()) {
            throw new ApiError({
              kind: 'timeout',
              operationId,
              message: `${operationId}: the service did not answer in time.`,
            });
          }
          throw new ApiError({
            kind: 'network',
            operationId,
            message: `${operationId}: the service could not be reached.`,
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
        if (notice) noteDeprecation({ ...notice, replacedBy: operation.replacedBy });

        if (
          response.type === 'opaqueredirect' ||
          (response.status >= 300 && response.status < 400 && response.status !== 304)
        ) {
          const location = response.headers.get('location');
          await response.body?.cancel().catch(() => undefined);
          const target = location ? new URL(location, url) : undefined;
          if (!target || target.origin !== apiOrigin || hop >= MAX_REDIRECTS) {
            throw new ApiError({
              kind: 'origin-refused',
              operationId,
              status: response.status || undefined,
              message: target
                ? `${operationId} was not followed: the service redirected it to ${target.origin}, away from the API origin ${apiOrigin}, where the key must not go.`
                : `${operationId} was not followed: the service answered with a redirect the extension cannot inspect, so the key stays at ${apiOrigin}.`,
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
        if (response.url && originOf(response.url) !== apiOrigin) {
          await response.body?.cancel().catch(() => undefined);
          throw new ApiError({
            kind: 'origin-refused',
            operationId,
            message: `${operationId} was refused: its answer came from ${originOf(response.url)}, not the API origin ${apiOrigin}.`,
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
      if (!isApiError(error) && abort.timedOut()) {
        throw new ApiError({
          kind: 'timeout',
          operationId,
          message: `${operationId}: the service did not answer in time.`,
        });
      }
      if (!isApiError(error) && plan.signal?.aborted) throw cancelled(operationId);
      throw error;
    } finally {
      if (!keepCallerSignal) abort.dispose();
    }
  }

  async function settle(
    plan: ExecutePlan,
    response: Response,
    heldUntil: number | undefined,
  ): Promise<ExecuteResult> {
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
          await response.body?.cancel().catch(() => undefined);
          throw new ApiError({
            kind: 'malformed-response',
            operationId,
            status,
            message: `${operationId}: expected an event stream but the service sent "${type.slice(0, 60)}".`,
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
        await response.body?.cancel().catch(() => undefined);
        return { ...base, data: undefined };
      }
      const json = await readJsonBody(response, operationId, maxBodyBytes);
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
      siteUrl,
      idempotent: plan.idempotencyKey !== undefined,
      retryAt: heldUntil,
    });
  }

  /** `boundKey`: the key a write was checked against, so the key sent is the key confirmed. */
  async function execute(plan: ExecutePlan, boundKey?: string): Promise<ExecuteResult> {
    refuseForeignServer(plan.operation);
    let key: string | undefined = boundKey;
    try {
      key ??= await keyFor(plan.operation);
      const deadline = now() + deadlineMs;
      return await withRetries(() => attemptOnce(plan, key), {
        operationId: plan.operation.operationId,
        policy,
        budget,
        random,
        now,
        sleep,
        signal: plan.signal,
        deadline,
        maxInWorkerWaitMs,
      });
    } catch (error) {
      if (!isApiError(error)) {
        // Anything unexpected still leaves as an ApiError naming the operation, never as a raw message.
        log.error('api.unexpected', { operationId: plan.operation.operationId, error });
        throw new ApiError({
          kind: 'network',
          operationId: plan.operation.operationId,
          message: `${plan.operation.operationId} failed unexpectedly.`,
        });
      }
      const clean = scrubSecret(error, key);
      log.warn('api.call.failed', {
        operationId: clean.operationId,
        kind: clean.kind,
        status: clean.status,
        attempts: clean.attempts,
      });
      throw clean;
    }
  }

  function responseSchemaFor(requestedId: string, operation: ResolvedOperation): z.ZodType | undefined {
    return knownResponseSchema(requestedId) ?? knownResponseSchema(operation.operationId);
  }

  function planRead(operationId: string, options: CallOptions, expect: 'json' | 'stream'): ExecutePlan {
    const operation = resolve(operationId);
    if (!SAFE_METHODS.has(operation.method) && !READS_BY_POST.has(operation.operationId)) {
      throw new ApiError({
        kind: 'unconfirmed-write',
        operationId: operation.operationId,
        message: `${operation.operationId} changes data: it is sent only as a confirmed write.`,
      });
    }
    const url = buildOperationUrl(operation, options);
    if (options.body !== undefined || operation.requestBodyRequired)
      validateRequestBody(openApi(), operation, options.body);
    return {
      operation,
      url,
      bodyText: options.body === undefined ? undefined : JSON.stringify(options.body),
      headers: callerHeaders(operation.operationId, options.headers),
      signal: options.signal,
      expect,
      responseSchema: responseSchemaFor(operationId, operation),
    };
  }

  async function call<K extends string>(
    operationId: K,
    options: CallOptions = {},
  ): Promise<ApiResponse<KnownResponseOf<K>>> {
    const plan = planRead(operationId, options, 'json');
    if (plan.bodyText !== undefined) {
      return (await execute(plan)) as ApiResponse<KnownResponseOf<K>>;
    }
    // Identical concurrent reads share one request; each caller may still stop waiting on its own signal.
    const sortedHeaders = Object.entries(plan.headers)
      .map(([name, value]) => [name.toLowerCase(), value])
      .sort();
    const coalesceKey = `${plan.operation.method} ${plan.url} ${JSON.stringify(sortedHeaders)}`;
    let shared = inFlightReads.get(coalesceKey);
    if (!shared) {
      shared = execute({ ...plan, signal: undefined }).finally(() => inFlightReads.delete(coalesceKey));
      inFlightReads.set(coalesceKey, shared);
    }
    const { response: _unused, ...result } = await raceAbort(
      shared,
      options.signal,
      plan.operation.operationId,
    );
    return result as ApiResponse<KnownResponseOf<K>>;
  }

  async function stream(operationId: string, options: CallOptions = {}): Promise<Response> {
    const result = await execute(planRead(operationId, options, 'stream'));
    if (!result.response) {
      throw new ApiError({
        kind: 'malformed-response',
        operationId,
        message: `${operationId}: the service sent no stream.`,
      });
    }
    return result.response;
  }

  async function* paginate<T>(
    operationId: string,
    options: PaginateOptions = {},
  ): AsyncGenerator<Page<T>, void, undefined> {
    const operation = resolve(operationId);
    // A playbook list past its sunset whose successor is GraphQL: walk the connection instead,
    // rather than "calling" graphql without a query (CONTRACT.md section 2: the forms are equivalent).
    if (operation.operationId === 'graphql' && PLAYBOOK_LISTS.has(operationId)) {
      yield* playbooksViaGraphQL(options) as AsyncGenerator<Page<T>, void, undefined>;
      return;
    }
    const bounds = pageSizeBounds(operation);
    const limit = bounds ? choosePageSize(bounds, options.pageSize) : undefined;
    const maxPages = Math.min(HARD_MAX_PAGES, Math.max(1, Math.floor(options.maxPages ?? DEFAULT_MAX_PAGES)));
    const seen = new Set<string>();
    const startCursor = options.query?.cursor;
    let cursor = typeof startCursor === 'string' && startCursor !== '' ? startCursor : undefined;
    if (cursor !== undefined) seen.add(cursor);
    const pageShape = listPageSchema(z.unknown());
    for (let pageNumber = 1; ; pageNumber++) {
      const { cursor: _ignored, limit: _limit, ...rest } = options.query ?? {};
      const query: Record<string, QueryValue> = { ...rest };
      if (limit !== undefined) query.limit = limit;
      if (cursor !== undefined) query.cursor = cursor;
      const result = await call(operationId, { path: options.path, query, signal: options.signal });
      const page = parseKnownShape(pageShape, result.data, result.operationId, result.status);
      const nextCursor = page.next_cursor;
      let stopReason: PageStopReason | undefined;
      if (!page.has_more) stopReason = 'end';
      else if (nextCursor === null || nextCursor === '') stopReason = 'missing-cursor';
      else if (seen.has(nextCursor)) stopReason = 'repeated-cursor';
      else if (pageNumber >= maxPages) stopReason = 'max-pages';
      if (stopReason && stopReason !== 'end') {
        log.warn('api.paginate.stopped', { operationId, reason: stopReason, pages: pageNumber });
      }
      yield {
        items: page.data as T[],
        pageNumber,
        cursor,
        nextCursor,
        hasMore: page.has_more,
        stopReason,
        complete: stopReason === 'end',
      };
      if (stopReason) return;
      seen.add(nextCursor as string);
      cursor = nextCursor as string;
    }
  }

  async function* playbooksViaGraphQL(
    options: PaginateOptions,
  ): AsyncGenerator<Page<Playbook>, void, undefined> {
    const visibility = options.query?.visibility;
    const after = options.query?.cursor;
    for await (const page of paginateGraphQL({
      visibility:
        visibility === 'private' || visibility === 'unlisted' || visibility === 'public'
          ? visibility
          : undefined,
      after: typeof after === 'string' && after !== '' ? after : undefined,
      pageSize: options.pageSize,
      maxPages: options.maxPages,
      signal: options.signal,
    })) {
      yield { ...page, items: page.items.map(restPlaybookOf) };
    }
  }

  function graphQLBounds(): PageSizeBounds {
    // The GraphQL schema is not in the OpenAPI document; the REST list's declared bounds stand in for it.
    try {
      const bounds = pageSizeBounds(resolveOperation(openApi(), 'listPlaybooks', now(), { documentUrl }));
      if (bounds) return bounds;
    } catch {
      // No usable listPlaybooks: fall back to the contract's batch size.
    }
    return { minimum: 1, maximum: BATCH_CHUNK_MAX, default: 20 };
  }

  async function* paginateGraphQL(
    options: GraphQLPaginateOptions = {},
  ): AsyncGenerator<Page<GraphQLPlaybook>, void, undefined> {
    const first = choosePageSize(graphQLBounds(), options.pageSize);
    const maxPages = Math.min(HARD_MAX_PAGES, Math.max(1, Math.floor(options.maxPages ?? DEFAULT_MAX_PAGES)));
    const seen = new Set<string>();
    let after = options.after;
    if (after !== undefined) seen.add(after);
    for (let pageNumber = 1; ; pageNumber++) {
      const variables: Record<string, unknown> = { first };
      if (after !== undefined) variables.after = after;
      if (options.visibility) variables.visibility = options.visibility.toUpperCase();
      const result = await call('graphql', {
        body: { query: PLAYBOOKS_QUERY, variables },
        signal: options.signal,
      });
      const body = parseKnownShape(graphQLResponseSchema, result.data, 'graphql', result.status);
      if (body.errors && body.errors.length > 0) {
        const first = body.errors[0]?.message.replace(/\s+/g, ' ').slice(0, 200) ?? 'unknown error';
        throw new ApiError({
          kind: 'validation',
          operationId: 'graphql',
          status: result.status,
          message: `graphql: the service refused the query: ${first}`,
        });
      }
      const connection = parseKnownShape(
        graphQLConnectionSchema,
        body.data?.playbooks,
        'graphql',
        result.status,
      );
      const { hasNextPage, endCursor } = connection.pageInfo;
      let stopReason: PageStopReason | undefined;
      if (!hasNextPage) stopReason = 'end';
      else if (endCursor === null || endCursor === '') stopReason = 'missing-cursor';
      else if (seen.has(endCursor) || endCursor === after) stopReason = 'repeated-cursor';
      else if (pageNumber >= maxPages) stopReason = 'max-pages';
      if (stopReason && stopReason !== 'end')
        log.warn('api.paginate.stopped', { operationId: 'graphql', reason: stopReason, pages: pageNumber });
      yield {
        items: connection.edges.map((edge) => edge.node),
        pageNumber,
        cursor: after,
        nextCursor: endCursor,
        hasMore: hasNextPage,
        stopReason,
        complete: stopReason === 'end',
      };
      if (stopReason) return;
      seen.add(endCursor as string);
      after = endCursor as string;
    }
  }

  function batchChunkSize(operation: ResolvedOperation): number {
    const schema = resolveLocalRef(openApi(), operation.requestBodySchema) as
      { properties?: { ids?: unknown } } | undefined;
    const ids = resolveLocalRef(openApi(), schema?.properties?.ids) as { maxItems?: unknown } | undefined;
    const declared =
      typeof ids?.maxItems === 'number' && ids.maxItems >= 1 ? Math.floor(ids.maxItems) : BATCH_CHUNK_MAX;
    return Math.min(BATCH_CHUNK_MAX, declared);
  }

  async function batchGet(ids: string[], options: { signal?: AbortSignal } = {}): Promise<BatchGetItem[]> {
    if (ids.length === 0) return [];
    const operation = resolve('batchGetPlaybooks');
    const size = batchChunkSize(operation);
    const out: BatchGetItem[] = [];
    for (let start = 0; start < ids.length; start += size) {
      const chunk = ids.slice(start, start + size);
      try {
        const result = await call('batchGetPlaybooks', { body: { ids: chunk }, signal: options.signal });
        const { results } = parseKnownShape(
          batchResultSchema,
          result.data,
          result.operationId,
          result.status,
        );
        // Request order is the contract; match by id when the service's order differs, so no item is misattributed.
        const remaining: (BatchItem | undefined)[] = [...results];
        for (const [index, id] of chunk.entries()) {
          const matchIndex =
            remaining[index]?.id === id ? index : remaining.findIndex((item) => item?.id === id);
          const match = matchIndex >= 0 ? remaining[matchIndex] : undefined;
          if (match) {
            remaining[matchIndex] = undefined;
            out.push(match);
          } else {
            out.push({
              id,
              status: 'failed',
              error: new ApiError({
                kind: 'malformed-response',
                operationId: result.operationId,
                message: `${result.operationId}: the service's answer has no result for this item.`,
              }).toJSON(),
            });
          }
        }
      } catch (error) {
        if (!isApiError(error) || error.kind === 'validation' || error.kind === 'deferred') throw error;
        for (const id of chunk) out.push({ id, status: 'failed', error: error.toJSON() });
      }
    }
    return out;
  }

  function resolveWriteOperation(operationId: WriteOperation): ResolvedOperation {
    const operation = resolveOperation(openApi(), operationId, now(), { documentUrl, forWrite: true });
    if (operation.deprecated) {
      noteDeprecation({
        operationId: operation.operationId,
        deprecated: true,
        sunsetAt: operation.sunset?.getTime(),
        replacedBy: operation.replacedBy,
        lastSeenAt: now(),
      });
    }
    return operation;
  }

  function resolveWrite(operationId: WriteOperation, playbookId?: string): WritePreview {
    const operation = resolveWriteOperation(operationId);
    refuseForeignServer(operation);
    return {
      operationId,
      method: operation.method,
      url: buildOperationUrl(operation, { playbookId }),
      warnings: operation.warnings,
      deprecated: operation.deprecated,
    };
  }

  function notSent(operationId: string, reason: string): ApiError {
    log.warn('api.write.unconfirmed', { operationId });
    return new ApiError({
      kind: 'unconfirmed-write',
      operationId,
      message: `${operationId} was not sent: ${reason}`,
    });
  }

  async function write(
    claimed: ClaimedWrite,
    options: { signal?: AbortSignal } = {},
  ): Promise<ApiResponse<unknown>> {
    const operationId = claimed.operationId;
    // The entry as stored, not as handed in: only the claim made in one IndexedDB transaction counts.
    const stored = await (deps.outboxEntry ?? getOutboxEntry<WriteDraft>)(claimed.id);
    const intent = stored?.draft.confirmed;
    if (
      !stored ||
      stored.status !== 'sending' ||
      !intent ||
      intent.operationId !== stored.operationId ||
      canonicalJson(intent) !== canonicalJson(claimed.draft.confirmed ?? null)
    ) {
      throw notSent(operationId, 'it is not a confirmed draft claimed for sending. Confirm it again.');
    }
    if (intent.apiUrl !== deps.apiUrl) {
      throw notSent(operationId, 'the API URL changed since you confirmed it. Review and confirm again.');
    }
    if (!UUID.test(intent.idempotencyKey)) {
      throw new ApiError({
        kind: 'validation',
        operationId,
        message: `${operationId} was not sent: its Idempotency-Key is not a UUID.`,
      });
    }
    const operation = resolveWriteOperation(intent.operationId);
    const url = buildOperationUrl(operation, { playbookId: playbookIdOf(stored.draft) });
    const now: WriteResolution = { operationId: intent.operationId, method: operation.method, url };
    if (now.method !== intent.method || now.url !== intent.url) {
      log.warn('api.write.operation-changed', { operationId, was: intent.method, now: now.method });
      throw new ApiError({
        kind: 'unconfirmed-write',
        operationId,
        code: 'operation-changed',
        message: `The service changed how this action is sent (was ${describeResolution(intent)}, now ${describeResolution(now)}). Nothing was sent. Review and confirm again.`,
      });
    }
    const body: unknown = intent.body === null ? undefined : JSON.parse(intent.body);
    if (canonicalJson(stored.draft.body ?? null) !== (intent.body ?? 'null')) {
      throw notSent(operationId, 'its body differs from the one you confirmed. Review and confirm again.');
    }
    validateRequestBody(openApi(), operation, body);
    let key: string | undefined;
    if (operation.requiresAuth) {
      key = await keyFor(operation);
      if (key !== undefined && (await fingerprintOfKey(key)) !== intent.keyFingerprint) {
        throw notSent(operationId, 'the API key changed since you confirmed it. Review and confirm again.');
      }
    }
    const headers: Record<string, string> = {};
    if (intent.ifMatch !== undefined) headers['If-Match'] = intent.ifMatch;
    const plan: ExecutePlan = {
      operation,
      url,
      // The bytes the user confirmed: every retry sends exactly these under the same key.
      bodyText: intent.body ?? undefined,
      headers,
      signal: options.signal,
      idempotencyKey: intent.idempotencyKey,
      expect: 'json',
      responseSchema: responseSchemaFor(intent.operationId, operation),
    };
    // Writes never overlap: each waits for the one before it to settle.
    const run = writeChain.then(
      () => execute(plan, key),
      () => execute(plan, key),
    );
    writeChain = run.catch(() => undefined);
    const { response: _unused, ...result } = await run;
    log.info('api.write.done', {
      operationId: operation.operationId,
      status: result.status,
      replayed: result.idempotentReplayed,
    });
    return result;
  }

  return {
    call,
    stream,
    paginate,
    paginateGraphQL,
    batchGet,
    resolveWrite,
    write,
    deprecations: () => deprecationRecord.list(),
    rateLimitState: () => gate.state(),
  };
}
