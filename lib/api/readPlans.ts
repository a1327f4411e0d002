/**
 * Building a read: the operation resolved, refused when it would write, its URL and body built and
 * checked against the document, and a POST read refused when its URL lands where a write could be.
 * What comes out is a RequestPlan the transport sends exactly as is.
 */
import { t } from '@/lib/i18n';
import type { z } from 'zod';
import { ApiError } from './errors';
import type { OpenApiDocument, ResolvedOperation } from './operations';
import { postReadRefusal, type PostReadRefusal, type WriteRoute } from './routes';
import { knownResponseSchema } from './schemas';
import type { SeenIds } from './seenIds';
import { callerHeaders, type RequestPlan } from './transport';
import { buildOperationUrl, type UrlArguments } from './urls';
import { validateRequestBody } from './validate';
import { WRITE_OPERATIONS } from './writeOperations';

export interface CallOptions extends UrlArguments {
  body?: unknown;
  /** Extra request headers such as If-None-Match or Last-Event-ID; credentials cannot be set here. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface ReadPlannerDeps {
  /** A read, x-replaced-by followed (operationLookup.ts). */
  resolve: (operationId: string) => ResolvedOperation;
  openApi: () => OpenApiDocument;
  seenIds: SeenIds;
  /** Write routes of earlier trusted documents of this service, for writes this document leaves out. */
  rememberedWriteRoutes?: readonly WriteRoute[];
}

export type ReadPlanner = (
  operationId: string,
  options: CallOptions,
  expect: 'json' | 'stream',
) => RequestPlan;

/** Operations that use POST but only read, per CONTRACT.md section 2. */
const READS_BY_POST = new Set(['batchGetPlaybooks', 'graphql']);
const SAFE_METHODS = new Set(['GET', 'HEAD']);

export function responseSchemaFor(requestedId: string, operation: ResolvedOperation): z.ZodType | undefined {
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

export function createReadPlanner(deps: ReadPlannerDeps): ReadPlanner {
  const { openApi, seenIds } = deps;

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

  return function planRead(operationId, options, expect) {
    const operation = deps.resolve(operationId);
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
  };
}
