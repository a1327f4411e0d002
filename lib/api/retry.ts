/**
 * Retries of 5xx, network failures and timeouts: exponential backoff with full jitter, a bounded
 * attempt count and a token-bucket budget shared by every call, so a flapping service does not
 * multiply traffic. Waits too long for a service worker become 'deferred' errors for `alarms`.
 */
import { plural, t } from '@/lib/i18n';
import { ApiError, retryTime, type ApiErrorKind } from './errors';

export interface BackoffPolicy {
  /** Attempts in total, the first one included. */
  maxAttempts: number;
  baseMs: number;
  capMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { maxAttempts: 4, baseMs: 250, capMs: 8_000 };

/** Longest wait slept inside the service worker; longer ones are handed to `alarms`. */
export const MAX_IN_WORKER_WAIT_MS = 20_000;

/** Full jitter: a uniformly random wait in [0, min(cap, base * 2^attempt)). `attempt` counts from 0. */
export function backoffDelay(
  attempt: number,
  policy: Pick<BackoffPolicy, 'baseMs' | 'capMs'>,
  random: () => number,
): number {
  const exponent = Math.min(Math.max(0, Math.floor(attempt)), 30);
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** exponent);
  const draw = random();
  // A broken random source must not produce a negative, infinite or above-ceiling wait.
  const unit = Number.isFinite(draw) ? Math.min(Math.max(draw, 0), 1 - Number.EPSILON) : 0;
  return Math.floor(unit * ceiling);
}

/** The kinds worth another attempt; every other 4xx outcome is final. */
export const RETRYABLE_KINDS: ReadonlySet<ApiErrorKind> = new Set([
  'server',
  'network',
  'timeout',
  'rate-limited',
]);

export function isRetryable(error: unknown): boolean {
  return error instanceof ApiError && RETRYABLE_KINDS.has(error.kind);
}

export interface RetryBudgetOptions {
  /** Most retries that may happen in a burst. */
  capacity: number;
  /** Tokens regained per second. */
  refillPerSecond: number;
  now: () => number;
}

/** Token bucket: every retry (not first attempts) spends one token; tokens refill over time. */
export class RetryBudget {
  private tokens: number;
  private updatedAt: number;
  private readonly options: RetryBudgetOptions;

  constructor(options: RetryBudgetOptions) {
    this.options = options;
    this.tokens = options.capacity;
    this.updatedAt = options.now();
  }

  private refill(): void {
    const now = this.options.now();
    const elapsedSeconds = Math.max(0, now - this.updatedAt) / 1000;
    this.tokens = Math.min(
      this.options.capacity,
      this.tokens + elapsedSeconds * this.options.refillPerSecond,
    );
    this.updatedAt = now;
  }

  /** Takes a token when one is left; false means the budget is spent and the call should give up. */
  trySpend(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  available(): number {
    this.refill();
    return this.tokens;
  }
}

export interface RetryContext {
  operationId: string;
  policy: BackoffPolicy;
  budget: RetryBudget;
  random: () => number;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  /** Epoch ms after which no new attempt starts. */
  deadline: number;
  maxInWorkerWaitMs: number;
}

function describe(error: ApiError): string {
  if (error.kind === 'server' && error.status !== undefined)
    return t('errors.retry.serverAnswered', { status: String(error.status) });
  if (error.kind === 'timeout') return t('errors.retry.timeout');
  if (error.kind === 'network') return t('errors.retry.unreachable');
  if (error.kind === 'rate-limited') return t('errors.retry.rateLimited');
  return error.message;
}

function giveUp(error: ApiError, attempts: number, why: string): ApiError {
  return error.with({
    attempts,
    message: plural('errors.retry.gaveUp', attempts, {
      operation: error.operationId,
      reason: describe(error),
      why,
    }),
  });
}

/**
 * Runs `attempt` until it succeeds, fails with a final error, or the attempts, budget or deadline
 * run out. A 429 does not back off here: the rate-limit gate makes the next attempt wait.
 */
export async function withRetries<T>(
  attempt: (attemptIndex: number) => Promise<T>,
  context: RetryContext,
): Promise<T> {
  for (let index = 0; ; index++) {
    try {
      return await attempt(index);
    } catch (error) {
      if (!isRetryable(error) || context.signal?.aborted) throw error;
      const failure = error as ApiError;
      const attempts = index + 1;
      if (attempts >= context.policy.maxAttempts)
        throw giveUp(failure, attempts, t('errors.retry.noAttemptsLeft'));
      if (!context.budget.trySpend()) throw giveUp(failure, attempts, t('errors.retry.budgetSpent'));
      const now = context.now();
      const waitMs =
        failure.kind === 'rate-limited' ? 0 : backoffDelay(index, context.policy, context.random);
      const retryAt = Math.max(now + waitMs, failure.retryAt ?? 0);
      if (retryAt - now > context.maxInWorkerWaitMs) {
        throw new ApiError({
          ...failure.toJSON(),
          kind: 'deferred',
          retryAt,
          attempts,
          message: t('errors.retry.later', {
            operation: failure.operationId,
            time: retryTime(retryAt, now),
            reason: describe(failure),
          }),
        });
      }
      if (retryAt > context.deadline) throw giveUp(failure, attempts, t('errors.retry.outOfTime'));
      if (waitMs > 0) await context.sleep(waitMs, context.signal);
    }
  }
}

/** A sleep that ends early with the signal's reason when the signal aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
