/**
 * The HTTP client of the service's API, composed of its parts: every call is resolved by
 * operationId from the OpenAPI document (here), validated before it is sent (here), handed to the
 * transport (transport.ts: one attempt, and the only place that decides where the key may go),
 * held back by the shared rate-limit gate (inside each attempt) and retried within a budget (here).
 * Identical concurrent reads share one request (here). Lists page in pagination.ts, batches chunk
 * in batch.ts, and writes go only as a confirmed intent (writes.ts).
 */
import { t } from '@/lib/i18n';
import type { z } from 'zod';
import { log, maskSecretsDeep, registerSecret } from '@/lib/log';
import { assertServiceUrlAllowed } from '@/lib/contract/origins';
import { batchGet, type BatchGetItem } from './batch';
import { DeprecationRecord, type DeprecationNotice } from './deprecations';
import { ApiError, errorFromStatus, isApiError, scrubSecret } from './errors';
import {
  declaredReplacement,
  operationResolver,
  parseOpenApiDocument,
  resolveOperation,
  type OpenApiDocument,
  type OperationResolver,
  type ResolvedOperation,
} from './operations';
import { buildOperationUrl, type UrlArguments } from './urls';
import {
  assertUnambiguousDocument,
  declaredWriteRoutes,
  postReadRefusal,
  type PostReadRefusal,
  type WriteRoute,
} from './routes';
import { SeenIds } from './seenIds';
import {
  createPagination,
  type GraphQLPaginateOptions,
  type ListPageResult,
  type ListPageOptions,
  type Page,
  type PaginateOptions,
} from './pagination';
import { sessionHoldStore, sharedRateLimitGate, type RateLimitGate, type RateLimitState } from './rateLimit';
import {
  abortableSleep,
  DEFAULT_BACKOFF,
  MAX_IN_WORKER_WAIT_MS,
  RetryBudget,
  withRetries,
  type BackoffPolicy,
} from './retry';
import { knownResponseSchema, type GraphQLPlaybook, type KnownResponseOf } from './schemas';
import {
  callerHeaders,
  cancelled,
  createTransport,
  type ApiResponse,
  type AttemptResult,
  type RequestPlan,
} from './transport';
import { DEFAULT_MAX_BODY_BYTES, validateRequestBody } from './validate';
import { WRITE_OPERATIONS, type WriteOperation } from './writeOperations';
import { createWrites, type IntentToSend, type SendOptions, type WritePreview } from './writes';

export type { ApiResponse } from './transport';
export type { BatchGetItem } from './batch';
export type {
  GraphQLPaginateOptions,
  ListPageResult,
  ListPageOptions,
  Page,
  PageStopReason,
  PaginateOptions,
} from './pagination';
export type { IntentToSend, SendOptions, Sending, WritePreview } from './writes';

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
  /**
   * The key saved for this origin (the client's API origin), or undefined: a client built before
   * the settings moved elsewhere must not be handed the key saved for the new origin.
   */
  getApiKey: (apiOrigin: string) => Promise<string | undefined>;
  now?: () => number;
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A signal that aborts after `ms`, for tests; by default each attempt runs its own timer. */
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
  /** Write routes of earlier trusted documents of this service, for writes this document leaves out. */
  rememberedWriteRoutes?: readonly WriteRoute[];
}

export interface CallOptions extends UrlArguments {
  body?: unknown;
  /** Extra request headers such as If-None-Match or Last-Event-ID; credentials cannot be set here. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface ApiClient {
  call<K extends string>(operationId: K, options?: CallOptions): Promise<ApiResponse<KnownResponseOf<K>>>;
  /** Opens a streaming read (text/event-stream) and hands back the response once its headers are in. */
  stream(operationId: string, options?: CallOptions): Promise<Response>;
  /** One page of a list, and whether (and why not) another may follow. */
  listPage<T = unknown>(operationId: string, options?: ListPageOptions): Promise<ListPageResult<T>>;
  /** Walks a list page by page, up to maxPages, stopping on a cursor seen before. */
  paginate<T = unknown>(
    operationId: string,
    options?: PaginateOptions,
  ): AsyncGenerator<Page<T>, void, undefined>;
  paginateGraphQL(options?: GraphQLPaginateOptions): AsyncGenerator<Page<GraphQLPlaybook>, void, undefined>;
  batchGet(ids: string[], options?: { signal?: AbortSignal }): Promise<BatchGetItem[]>;
  /** How a write resolves in the current document: the operation itself, never its replacement. */
  resolveWrite(operationId: WriteOperation, playbookId?: string): WritePreview;
  /** Sends a confirmed intent, and nothing else, once `beforeSend` accepts what would leave. */
  write(toSend: IntentToSend, options: SendOptions): Promise<ApiResponse<unknown>>;
  deprecations(): DeprecationNotice[];
  rateLimitState(): RateLimitState;
  /** The routes this document declares for the contract's writes, to remember for later documents. */
  declaredWriteRoutes(): WriteRoute[];
}

/** Operations that use POST but only read, per CONTRACT.md section 2. */
const READS_BY_POST = new Set(['batchGetPlaybooks', 'graphql']);
const SAFE_METHODS = new Set(['GET', 'HEAD']);
const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;
const DEFAULT_DEADLINE_MS = 25_000;

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

function responseSchemaFor(requestedId: string, operation: ResolvedOperation): z.ZodType | undefined {
  return knownResponseSchema(requestedId) ?? knownResponseSchema(operation.operationId);
}

function refusalReason(refusal: PostReadRefusal): string {
  switch (refusal.reason) {
    case 'write-route':
      return t('errors.api.writeRoute', { write: refusal.write });
    case 'write-word':
      return t('errors.api.writeWord', { word: refusal.word });
    case 'seen-id':
      return t('errors.api.seenId');
  }
}

function withoutStream({ response: _unused, ...result }: AttemptResult): ApiResponse<unknown> {
  return result;
}

export function createApiClient(deps: ApiClientDeps): ApiClient {
  // No client exists for an API URL that would carry the key over plain http.
  assertServiceUrlAllowed(deps.apiUrl);
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? abortableSleep;
  const apiOrigin = new URL(deps.apiUrl).origin;
  const siteUrl = deps.siteUrl ?? apiOrigin;
  const documentUrl = deps.openApiUrl ?? deps.apiUrl;
  const maxInWorkerWaitMs = deps.maxInWorkerWaitMs ?? MAX_IN_WORKER_WAIT_MS;
  const policy: BackoffPolicy = { ...DEFAULT_BACKOFF, ...deps.backoff };
  const deadlineMs = deps.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const gate =
    deps.rateLimitGate ??
    sharedRateLimitGate({ origin: apiOrigin, now, sleep, holdStore: sessionHoldStore(), maxInWorkerWaitMs });
  const budget = deps.retryBudget ?? new RetryBudget({ capacity: 10, refillPerSecond: 0.5, now });
  const deprecationRecord = new DeprecationRecord();
  const inFlightReads = new Map<string, Promise<AttemptResult>>();
  const seenIds = new SeenIds();
  let document: OpenApiDocument | undefined;
  let resolveRead: OperationResolver | undefined;

  const transport = createTransport({
    apiOrigin,
    siteUrl,
    fetch: deps.fetch,
    now,
    timeoutSignal: deps.timeoutSignal,
    attemptTimeoutMs: deps.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS,
    maxBodyBytes: deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    gate,
    noteDeprecation,
  });

  function openApi(): OpenApiDocument {
    if (!document) {
      const parsed = parseOpenApiDocument(deps.openApi);
      assertUnambiguousDocument(parsed, WRITE_OPERATIONS);
      document = parsed;
    }
    return document;
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

  function noteIfDeprecated(operation: ResolvedOperation): void {
    if (!operation.deprecated) return;
    noteDeprecation({
      operationId: operation.operationId,
      deprecated: true,
      sunsetAt: operation.sunset?.getTime(),
      replacedBy: operation.replacedBy,
      lastSeenAt: now(),
    });
  }

  /** Reads resolve once per operation and document (until the next x-sunset), not on every page. */
  function lookupRead(operationId: string): ResolvedOperation {
    resolveRead ??= operationResolver(openApi(), { documentUrl });
    return resolveRead(operationId, now());
  }

  /** A read: follows x-replaced-by to the successor, and says so. */
  function resolve(operationId: string): ResolvedOperation {
    const operation = lookupRead(operationId);
    if (operation.requestedOperationId !== operation.operationId) {
      noteDeprecation({
        operationId: operation.requestedOperationId,
        deprecated: true,
        replacedBy: operation.operationId,
        lastSeenAt: now(),
      });
    }
    noteIfDeprecated(operation);
    if (operation.warnings.length > 0) {
      log.warn('api.operation.warnings', {
        operationId,
        resolved: operation.operationId,
        warnings: operation.warnings,
      });
    }
    return operation;
  }

  /** A write: the operation itself, never its replacement. */
  function resolveWriteOperation(operationId: WriteOperation): ResolvedOperation {
    const operation = resolveOperation(openApi(), operationId, now(), { documentUrl, forWrite: true });
    noteIfDeprecated(operation);
    return operation;
  }

  async function keyFor(operation: ResolvedOperation): Promise<string | undefined> {
    if (!operation.requiresAuth) return undefined;
    const key = await deps.getApiKey(apiOrigin);
    if (!key) {
      throw errorFromStatus({ operationId: operation.operationId, status: 401, siteUrl }).with({
        status: undefined,
      });
    }
    registerSecret(key);
    return key;
  }

  /** Sends a plan with retries. `boundKey`: the key a write was checked against, so the key sent is the key confirmed. */
  async function send(plan: RequestPlan, boundKey?: string): Promise<AttemptResult> {
    transport.refuseForeignServer(plan.operation);
    let key: string | undefined = boundKey;
    try {
      key ??= await keyFor(plan.operation);
      const deadline = now() + deadlineMs;
      const result = await withRetries(() => transport.attempt(plan, key), {
        operationId: plan.operation.operationId,
        policy,
        budget,
        random: deps.random ?? Math.random,
        now,
        sleep,
        signal: plan.signal,
        deadline,
        maxInWorkerWaitMs,
      });
      seenIds.addResponse(result.data);
      return result;
    } catch (error) {
      if (!isApiError(error)) {
        // Anything unexpected still leaves as an ApiError naming the operation, never as a raw message.
        log.error('api.unexpected', { operationId: plan.operation.operationId, error });
        throw new ApiError({
          kind: 'network',
          operationId: plan.operation.operationId,
          message: t('errors.api.unexpected', { operation: plan.operation.operationId }),
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

  function planRead(operationId: string, options: CallOptions, expect: 'json' | 'stream'): RequestPlan {
    const operation = resolve(operationId);
    // A POST read (batch, GraphQL) is called by its own operationId, never reached as a replacement.
    const postRead =
      READS_BY_POST.has(operation.operationId) && operation.operationId === operation.requestedOperationId;
    if (!SAFE_METHODS.has(operation.method) && !postRead) {
      throw new ApiError({
        kind: 'unconfirmed-write',
        operationId: operation.operationId,
        message: t('errors.api.readIsWrite', { operation: operation.operationId }),
      });
    }
    const url = buildOperationUrl(operation, options);
    seenIds.addArguments(options);
    if (postRead) refuseWriteShapedRead(operation, url, options.body);
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

  /** The URL as built, not only the template: a POST read never lands where a write could be (routes.ts). */
  function refuseWriteShapedRead(operation: ResolvedOperation, url: string, body: unknown): void {
    seenIds.addBody(body);
    const refusal = postReadRefusal({
      doc: openApi(),
      writeOperationIds: WRITE_OPERATIONS,
      url,
      serverUrl: operation.serverUrl,
      remembered: deps.rememberedWriteRoutes,
      isSeenId: (piece) => seenIds.has(piece),
    });
    if (refusal === undefined) return;
    throw new ApiError({
      kind: 'unconfirmed-write',
      operationId: operation.operationId,
      message: t('errors.api.notSent', { operation: operation.operationId, reason: refusalReason(refusal) }),
    });
  }

  async function call<K extends string>(
    operationId: K,
    options: CallOptions = {},
  ): Promise<ApiResponse<KnownResponseOf<K>>> {
    const plan = planRead(operationId, options, 'json');
    if (plan.bodyText !== undefined) {
      return withoutStream(await send(plan)) as ApiResponse<KnownResponseOf<K>>;
    }
    // Identical concurrent reads share one request; each caller may still stop waiting on its own signal.
    const sortedHeaders = Object.entries(plan.headers)
      .map(([name, value]) => [name.toLowerCase(), value])
      .sort();
    const coalesceKey = `${plan.operation.method} ${plan.url} ${JSON.stringify(sortedHeaders)}`;
    let shared = inFlightReads.get(coalesceKey);
    if (!shared) {
      shared = send({ ...plan, signal: undefined }).finally(() => inFlightReads.delete(coalesceKey));
      inFlightReads.set(coalesceKey, shared);
    }
    const result = await raceAbort(shared, options.signal, plan.operation.operationId);
    return withoutStream(result) as ApiResponse<KnownResponseOf<K>>;
  }

  async function stream(operationId: string, options: CallOptions = {}): Promise<Response> {
    const result = await send(planRead(operationId, options, 'stream'));
    if (!result.response) {
      throw new ApiError({
        kind: 'malformed-response',
        operationId,
        message: t('errors.api.noStream', { operation: operationId }),
      });
    }
    return result.response;
  }

  const pagination = createPagination({
    call,
    resolve,
    lookup: lookupRead,
    declaredReplacement: (operationId) => {
      const successor = declaredReplacement(openApi(), operationId);
      // Paged through its successor by name: the user is told, as a followed replacement tells.
      if (successor)
        noteDeprecation({ operationId, deprecated: true, replacedBy: successor, lastSeenAt: now() });
      return successor;
    },
  });
  const writes = createWrites({
    apiUrl: deps.apiUrl,
    openApi,
    resolveWriteOperation,
    refuseForeignServer: transport.refuseForeignServer,
    keyFor,
    responseSchemaFor,
    send: async (plan, key) => withoutStream(await send(plan, key)),
  });

  return {
    call,
    stream,
    listPage: pagination.listPage,
    paginate: pagination.paginate,
    paginateGraphQL: pagination.paginateGraphQL,
    // A refused item carries the service's own problem text, which a page shows as sent: masked here.
    batchGet: async (ids, options) =>
      // Only the problem: the item's id is ours and must still name its playbook.
      (await batchGet({ call, resolve, openApi }, ids, options)).map((item) =>
        item.status === 200 ? item : ({ ...item, error: maskSecretsDeep(item.error) } as typeof item),
      ),
    resolveWrite: writes.resolveWrite,
    write: writes.write,
    // A page shows these: a successor link the service built from the key must not carry it there.
    deprecations: () => maskSecretsDeep(deprecationRecord.list()),
    rateLimitState: () => gate.state(),
    declaredWriteRoutes: () => declaredWriteRoutes(openApi(), WRITE_OPERATIONS),
  };
}
