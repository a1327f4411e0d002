/**
 * The HTTP client of the service's API, composed of its parts: every call is resolved by
 * operationId from the OpenAPI document (operationLookup.ts), built and checked before it is sent
 * (readPlans.ts), sent with the key and retried within a budget (sending.ts) through the transport
 * (transport.ts: one attempt, and the only place that decides where the key may go), held back by
 * the shared rate-limit gate (inside each attempt). Identical concurrent reads share one request
 * (reads.ts). Lists page in pagination.ts, batches chunk in batch.ts, and writes go only as a
 * confirmed intent (writes.ts). This file only wires them together.
 */
import { maskSecretsDeep } from '@/lib/log';
import { assertServiceUrlAllowed } from '@/lib/contract/origins';
import { batchGet, type BatchGetItem } from './batch';
import type { DeprecationNotice } from './deprecations';
import { createOperationLookup } from './operationLookup';
import {
  createPagination,
  type GraphQLPaginateOptions,
  type ListPageResult,
  type ListPageOptions,
  type Page,
  type PaginateOptions,
} from './pagination';
import { createReadPlanner, responseSchemaFor, type CallOptions } from './readPlans';
import { createReads, withoutStream } from './reads';
import { declaredWriteRoutes, type WriteRoute } from './routes';
import { SeenIds } from './seenIds';
import { sessionHoldStore, sharedRateLimitGate, type RateLimitGate, type RateLimitState } from './rateLimit';
import {
  abortableSleep,
  DEFAULT_BACKOFF,
  MAX_IN_WORKER_WAIT_MS,
  RetryBudget,
  type BackoffPolicy,
} from './retry';
import type { GraphQLPlaybook, KnownResponseOf } from './schemas';
import { createRequestSender } from './sending';
import { createTransport, type ApiResponse } from './transport';
import { DEFAULT_MAX_BODY_BYTES } from './validate';
import { WRITE_OPERATIONS, type WriteOperation } from './writeOperations';
import { createWrites, type IntentToSend, type SendOptions, type WritePreview } from './writes';

export type { ApiResponse } from './transport';
export type { BatchGetItem } from './batch';
export type { CallOptions } from './readPlans';
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

const DEFAULT_ATTEMPT_TIMEOUT_MS = 10_000;
const DEFAULT_DEADLINE_MS = 25_000;

/** The rate-limit gate shared by every client of the origin, and this client's retry policy and budget. */
function retryGuards(deps: ApiClientDeps, apiOrigin: string, now: () => number) {
  const sleep = deps.sleep ?? abortableSleep;
  const maxInWorkerWaitMs = deps.maxInWorkerWaitMs ?? MAX_IN_WORKER_WAIT_MS;
  const gate =
    deps.rateLimitGate ??
    sharedRateLimitGate({ origin: apiOrigin, now, sleep, holdStore: sessionHoldStore(), maxInWorkerWaitMs });
  const budget = deps.retryBudget ?? new RetryBudget({ capacity: 10, refillPerSecond: 0.5, now });
  const policy: BackoffPolicy = { ...DEFAULT_BACKOFF, ...deps.backoff };
  return { gate, retry: { sleep, maxInWorkerWaitMs, budget, policy } };
}

export function createApiClient(deps: ApiClientDeps): ApiClient {
  // No client exists for an API URL that would carry the key over plain http.
  assertServiceUrlAllowed(deps.apiUrl);
  const now = deps.now ?? Date.now;
  const apiOrigin = new URL(deps.apiUrl).origin;
  const siteUrl = deps.siteUrl ?? apiOrigin;
  const guards = retryGuards(deps, apiOrigin, now);
  const seenIds = new SeenIds();
  const lookup = createOperationLookup({
    openApi: deps.openApi,
    documentUrl: deps.openApiUrl ?? deps.apiUrl,
    now,
  });
  const { openApi, resolve } = lookup;
  const transport = createTransport({
    apiOrigin,
    siteUrl,
    fetch: deps.fetch,
    now,
    timeoutSignal: deps.timeoutSignal,
    attemptTimeoutMs: deps.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS,
    maxBodyBytes: deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    gate: guards.gate,
    noteDeprecation: lookup.noteDeprecation,
  });
  const { keyFor, send } = createRequestSender({
    ...guards.retry,
    transport,
    apiOrigin,
    siteUrl,
    getApiKey: deps.getApiKey,
    now,
    random: deps.random,
    deadlineMs: deps.deadlineMs ?? DEFAULT_DEADLINE_MS,
    seenIds,
  });
  const planRead = createReadPlanner({
    resolve,
    openApi,
    seenIds,
    rememberedWriteRoutes: deps.rememberedWriteRoutes,
  });
  const { call, stream } = createReads({ planRead, send });
  const pagination = createPagination({
    call,
    resolve,
    lookup: lookup.lookupRead,
    declaredReplacement: lookup.pagedReplacement,
  });
  const writes = createWrites({
    apiUrl: deps.apiUrl,
    openApi,
    resolveWriteOperation: lookup.resolveWriteOperation,
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
    deprecations: () => maskSecretsDeep(lookup.deprecations()),
    rateLimitState: () => guards.gate.state(),
    declaredWriteRoutes: () => declaredWriteRoutes(openApi(), WRITE_OPERATIONS),
  };
}
