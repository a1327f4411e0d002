import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  backoffDelay,
  RetryBudget,
  withRetries,
  type ApiErrorKind,
  type RetryContext,
} from '@/lib/api';
import { captureLogs, fakeClock, rejection } from './support';

let restoreLogs: () => void;
beforeEach(() => {
  restoreLogs = captureLogs().restore;
});
afterEach(() => restoreLogs());

describe('backoffDelay (full jitter)', () => {
  const policy = { baseMs: 100, capMs: 5_000 };
  it.each([
    [0, 0, 0],
    [0, 0.999999, 99],
    [1, 0.999999, 199],
    [3, 0.5, 400],
    [6, 0.999999, 4_999],
    [10, 0.999999, 4_999],
    [1_000, 0.5, 2_500],
  ])('attempt %i with random %f waits %i ms', (attempt, random, expected) => {
    expect(backoffDelay(attempt, policy, () => random)).toBe(expected);
  });

  it.each([
    ['exactly 1', 1],
    ['above 1', 7],
    ['negative', -3],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
  ])('a broken random source (%s) stays within [0, ceiling)', (_name, value) => {
    for (const attempt of [0, 2, 8]) {
      const delay = backoffDelay(attempt, policy, () => value);
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(Math.min(policy.capMs, policy.baseMs * 2 ** attempt));
    }
  });

  it('negative or fractional attempts count as their floor, never below 0', () => {
    expect(backoffDelay(-4, policy, () => 0.999999)).toBe(99);
    expect(backoffDelay(1.9, policy, () => 0.5)).toBe(100);
  });
});

describe('RetryBudget', () => {
  it('is spent by retries and refuses once empty', () => {
    const clock = fakeClock();
    const budget = new RetryBudget({ capacity: 3, refillPerSecond: 1, now: clock.now });
    expect([budget.trySpend(), budget.trySpend(), budget.trySpend(), budget.trySpend()]).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it('refills over time but never above capacity', () => {
    const clock = fakeClock();
    const budget = new RetryBudget({ capacity: 2, refillPerSecond: 0.5, now: clock.now });
    budget.trySpend();
    budget.trySpend();
    expect(budget.trySpend()).toBe(false);
    clock.advance(2_000);
    expect(budget.trySpend()).toBe(true);
    expect(budget.trySpend()).toBe(false);
    clock.advance(60_000);
    expect(budget.available()).toBe(2);
  });
});

function context(overrides: Partial<RetryContext> = {}) {
  const clock = fakeClock();
  const ctx: RetryContext = {
    operationId: 'getAccount',
    policy: { maxAttempts: 4, baseMs: 100, capMs: 1_000 },
    budget: new RetryBudget({ capacity: 10, refillPerSecond: 0, now: clock.now }),
    random: () => 0.999999,
    now: clock.now,
    sleep: clock.sleep,
    deadline: clock.now() + 60_000,
    maxInWorkerWaitMs: 20_000,
    ...overrides,
  };
  return { ctx, clock };
}

function failing(kind: ApiErrorKind, status?: number) {
  return new ApiError({ kind, status, operationId: 'getAccount', message: `getAccount: ${kind}` });
}

describe('withRetries', () => {
  it.each<[ApiErrorKind, number | undefined]>([
    ['server', 503],
    ['network', undefined],
    ['timeout', undefined],
  ])('retries %s with growing jittered waits, then names the operation', async (kind, status) => {
    const { ctx, clock } = context();
    let calls = 0;
    const error = (await rejection(
      withRetries(() => {
        calls++;
        return Promise.reject(failing(kind, status));
      }, ctx),
    )) as ApiError;
    expect(calls).toBe(4);
    expect(clock.sleeps).toEqual([99, 199, 399]);
    expect(error.kind).toBe(kind);
    expect(error.attempts).toBe(4);
    expect(error.message).toMatch(/^getAccount failed after 4 attempts/);
  });

  it.each<[ApiErrorKind, number]>([
    ['validation', 400],
    ['unauthorized', 401],
    ['forbidden', 403],
    ['not-found', 404],
    ['conflict', 409],
    ['precondition-failed', 412],
    ['idempotency-mismatch', 422],
  ])('never retries %s (%i)', async (kind, status) => {
    const { ctx, clock } = context();
    let calls = 0;
    const error = (await rejection(
      withRetries(() => {
        calls++;
        return Promise.reject(failing(kind, status));
      }, ctx),
    )) as ApiError;
    expect(calls).toBe(1);
    expect(clock.sleeps).toEqual([]);
    expect(error.kind).toBe(kind);
  });

  it('stops when the shared budget is spent, even with attempts left', async () => {
    const { ctx } = context();
    const budget = new RetryBudget({ capacity: 1, refillPerSecond: 0, now: ctx.now });
    let calls = 0;
    const error = (await rejection(
      withRetries(
        () => {
          calls++;
          return Promise.reject(failing('server', 500));
        },
        { ...ctx, budget },
      ),
    )) as ApiError;
    expect(calls).toBe(2);
    expect(error.message).toContain('retry budget');
    // A second call finds the budget empty and gets no retry at all.
    let secondCalls = 0;
    await rejection(
      withRetries(
        () => {
          secondCalls++;
          return Promise.reject(failing('server', 500));
        },
        { ...ctx, budget },
      ),
    );
    expect(secondCalls).toBe(1);
  });

  it('succeeds on a later attempt', async () => {
    const { ctx } = context();
    let calls = 0;
    const value = await withRetries(
      () => (++calls < 3 ? Promise.reject(failing('server', 502)) : Promise.resolve('ok')),
      ctx,
    );
    expect(value).toBe('ok');
    expect(calls).toBe(3);
  });

  it('hands a wait longer than the worker may sleep back as deferred with retryAt', async () => {
    const { ctx, clock } = context();
    const limited = new ApiError({
      kind: 'rate-limited',
      status: 429,
      operationId: 'getAccount',
      message: 'x',
      retryAt: clock.now() + 90_000,
    });
    const error = (await rejection(withRetries(() => Promise.reject(limited), ctx))) as ApiError;
    expect(error.kind).toBe('deferred');
    expect(error.retryAt).toBe(clock.now() + 90_000);
    expect(clock.sleeps).toEqual([]);
  });

  it('gives up rather than start an attempt after the deadline', async () => {
    const { ctx } = context({ deadline: 0 });
    let calls = 0;
    const error = (await rejection(
      withRetries(
        () => {
          calls++;
          return Promise.reject(failing('server', 500));
        },
        { ...ctx, deadline: ctx.now() + 50 },
      ),
    )) as ApiError;
    expect(calls).toBe(1);
    expect(error.message).toContain('ran out');
  });

  it('does not retry once the caller aborted', async () => {
    const controller = new AbortController();
    const { ctx } = context({ signal: controller.signal });
    let calls = 0;
    await rejection(
      withRetries(() => {
        calls++;
        controller.abort();
        return Promise.reject(failing('network'));
      }, ctx),
    );
    expect(calls).toBe(1);
  });
});
