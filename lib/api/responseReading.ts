/**
 * Reading a final (non-redirect) answer of one attempt (transport.ts): its status, headers and
 * body, read within a byte limit, become a result or the ApiError its status means.
 */
import { t } from '@/lib/i18n';
import type { z } from 'zod';
import { ApiError, errorFromStatus } from './errors';
import type { ResolvedOperation } from './operations';
import { problemSchema, type Problem } from './schemas';
import { isJsonContentType, parseKnownShape, readJsonBody } from './validate';

/** What of a planned request the reading depends on (a RequestPlan fits). */
export interface ReadingPlan {
  operation: ResolvedOperation;
  idempotencyKey?: string;
  expect: 'json' | 'stream';
  responseSchema?: z.ZodType;
}

export interface ReadingLimits {
  /** Where /apikey lives, for the 401 message. */
  siteUrl: string;
  maxBodyBytes: number;
}

export interface ReadResult {
  operationId: string;
  status: number;
  data: unknown;
  etag?: string;
  idempotentReplayed: boolean;
  notModified: boolean;
  warnings: string[];
  /** An open event stream, handed back unread. */
  response?: Response;
}

export async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

async function readProblem(
  response: Response,
  operationId: string,
  maxBodyBytes: number,
): Promise<Problem | undefined> {
  if (!isJsonContentType(response.headers.get('content-type'))) {
    await discardBody(response);
    return undefined;
  }
  try {
    const parsed = problemSchema.safeParse(await readJsonBody(response, operationId, maxBodyBytes));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Turns a final (non-redirect) answer into a result, reading at most maxBodyBytes. */
export async function settleResponse(
  plan: ReadingPlan,
  response: Response,
  heldUntil: number | undefined,
  limits: ReadingLimits,
): Promise<ReadResult> {
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
    const json = await readJsonBody(response, operationId, limits.maxBodyBytes);
    const data = plan.responseSchema ? parseKnownShape(plan.responseSchema, json, operationId, status) : json;
    return { ...base, data };
  }
  const problem = await readProblem(response, operationId, limits.maxBodyBytes);
  throw errorFromStatus({
    operationId,
    status,
    problem,
    siteUrl: limits.siteUrl,
    idempotent: plan.idempotencyKey !== undefined,
    retryAt: heldUntil,
  });
}
