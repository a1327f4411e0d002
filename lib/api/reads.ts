/**
 * Sending reads: `call` for a JSON answer, with identical concurrent reads sharing one request
 * (each caller may still stop waiting on its own signal), and `stream` for an event stream,
 * handed back once its headers are in.
 */
import { t } from '@/lib/i18n';
import { ApiError } from './errors';
import type { CallOptions, ReadPlanner } from './readPlans';
import type { KnownResponseOf } from './schemas';
import { cancelled, type ApiResponse, type AttemptResult, type RequestPlan } from './transport';

export interface ReadsDeps {
  planRead: ReadPlanner;
  send: (plan: RequestPlan) => Promise<AttemptResult>;
}

export interface Reads {
  call: <K extends string>(operationId: K, options?: CallOptions) => Promise<ApiResponse<KnownResponseOf<K>>>;
  stream: (operationId: string, options?: CallOptions) => Promise<Response>;
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

/** The result as a caller sees it: an open stream is handed back only by `stream`. */
export function withoutStream({ response: _unused, ...result }: AttemptResult): ApiResponse<unknown> {
  return result;
}

export function createReads({ planRead, send }: ReadsDeps): Reads {
  const inFlightReads = new Map<string, Promise<AttemptResult>>();

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

  return { call, stream };
}
