/**
 * Sending a planned request: the key for the API origin is read (or the key a write was bound
 * to is used), attempts go through the transport within the retry policy (budget, backoff,
 * deadline, in-worker wait), and every failure leaves as an ApiError scrubbed of the key.
 */
import { t } from '@/lib/i18n';
import { log, registerSecret } from '@/lib/log';
import { ApiError, errorFromStatus, isApiError, scrubSecret } from './errors';
import type { ResolvedOperation } from './operations';
import { withRetries, type BackoffPolicy, type RetryBudget } from './retry';
import type { SeenIds } from './seenIds';
import type { AttemptResult, RequestPlan, Transport } from './transport';

export interface RequestSenderDeps {
  transport: Transport;
  /** The client's API origin: the key is asked for this origin only. */
  apiOrigin: string;
  /** Where /apikey lives, for the message when no key is saved. */
  siteUrl: string;
  getApiKey: (apiOrigin: string) => Promise<string | undefined>;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  policy: BackoffPolicy;
  budget: RetryBudget;
  /** For the whole call, retries included: no attempt starts after it. */
  deadlineMs: number;
  maxInWorkerWaitMs: number;
  /** Ids the service answered with, so a POST read cannot be aimed at one (readPlans.ts). */
  seenIds: SeenIds;
}

export interface RequestSender {
  /** The saved key when the operation needs one; a missing key is a 401 without a status. */
  keyFor: (operation: ResolvedOperation) => Promise<string | undefined>;
  /** Sends a plan with retries. `boundKey`: the key a write was checked against, so the key sent is the key confirmed. */
  send: (plan: RequestPlan, boundKey?: string) => Promise<AttemptResult>;
}

export function createRequestSender(deps: RequestSenderDeps): RequestSender {
  const { transport, now } = deps;

  async function keyFor(operation: ResolvedOperation): Promise<string | undefined> {
    if (!operation.requiresAuth) return undefined;
    const key = await deps.getApiKey(deps.apiOrigin);
    if (!key) {
      throw errorFromStatus({ operationId: operation.operationId, status: 401, siteUrl: deps.siteUrl }).with({
        status: undefined,
      });
    }
    registerSecret(key);
    return key;
  }

  async function send(plan: RequestPlan, boundKey?: string): Promise<AttemptResult> {
    transport.refuseForeignServer(plan.operation);
    let key: string | undefined = boundKey;
    try {
      key ??= await keyFor(plan.operation);
      const deadline = now() + deps.deadlineMs;
      const result = await withRetries(() => transport.attempt(plan, key), {
        operationId: plan.operation.operationId,
        policy: deps.policy,
        budget: deps.budget,
        random: deps.random ?? Math.random,
        now,
        sleep: deps.sleep,
        signal: plan.signal,
        deadline,
        maxInWorkerWaitMs: deps.maxInWorkerWaitMs,
      });
      deps.seenIds.addResponse(result.data);
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

  return { keyFor, send };
}
