import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import {
  ApiError,
  MAX_HEADER_WAIT_MS,
  parseHttpDate,
  parseRateLimit,
  parseRateLimitPolicy,
  parseRateLimitReset,
  parseRetryAfter,
  parseStructuredList,
  RateLimitGate,
  retryAtFrom,
  sessionHoldStore,
  sharedRateLimitGate,
} from '@/lib/api';
import { captureLogs, fakeClock, memoryHoldStore, rejection, START } from './support';

let restoreLogs: () => void;
beforeEach(() => {
  restoreLogs = captureLogs().restore;
});
afterEach(() => restoreLogs());

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0); // Thu, 15 Jan 2026 12:00:00 GMT

describe('parseRetryAfter', () => {
  it.each([
    ['delta seconds', '120', NOW + 120_000],
    ['zero', '0', NOW],
    ['padded', '  7 ', NOW + 7_000],
    ['IMF-fixdate in the future', 'Thu, 15 Jan 2026 12:00:30 GMT', NOW + 30_000],
    ['IMF-fixdate in the past means now', 'Wed, 14 Jan 2026 12:00:00 GMT', NOW],
    ['RFC 850 date', 'Thursday, 15-Jan-26 12:01:00 GMT', NOW + 60_000],
    ['asctime date is GMT, not local', 'Thu Jan 15 12:00:10 2026', NOW + 10_000],
    ['absurdly far is capped', '999999999', NOW + MAX_HEADER_WAIT_MS],
  ])('%s: %j', (_name, header, expected) => {
    expect(parseRetryAfter(header, NOW)).toBe(expected);
  });

  it.each([
    ['negative', '-5'],
    ['fraction', '1.5'],
    ['empty', ''],
    ['words', 'soon'],
    ['ISO date is not an HTTP-date', '2026-01-15T12:00:30Z'],
    ['date without zone', 'Thu, 15 Jan 2026 12:00:30'],
    ['number with unit', '10s'],
    ['injection-ish', '10\r\nSet-Cookie: a=b'],
    ['huge digit string', '1'.repeat(400)],
  ])('garbage (%s) is ignored: %j', (_name, header) => {
    expect(parseRetryAfter(header, NOW)).toBeUndefined();
  });

  it('null and undefined are no header', () => {
    expect(parseRetryAfter(null, NOW)).toBeUndefined();
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
  });

  it('reads an RFC 850 year more than 50 years ahead as the previous century', () => {
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', NOW)).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
  });
});

describe('parseRateLimitReset', () => {
  it.each([
    ['30', NOW + 30_000],
    ['0', NOW],
    ['abc', undefined],
    ['-1', undefined],
    ['Thu, 15 Jan 2026 12:00:30 GMT', undefined],
  ])('%j → %s', (header, expected) => {
    expect(parseRateLimitReset(header, NOW)).toBe(expected);
  });
});

describe('RateLimit and RateLimit-Policy (structured fields)', () => {
  it.each([
    ['"default";r=5;t=30', { policy: 'default', remaining: 5, resetSeconds: 30 }],
    ['"default";r=0;t=12', { policy: 'default', remaining: 0, resetSeconds: 12 }],
    ['default;r=7;t=1', { policy: 'default', remaining: 7, resetSeconds: 1 }],
    ['"day";r=90;t=3600, "default";r=3;t=20', { policy: 'default', remaining: 3, resetSeconds: 20 }],
    ['"burst";r=1;t=2', { policy: 'burst', remaining: 1, resetSeconds: 2 }],
    ['"default";r=-1;t=30', { policy: 'default', remaining: undefined, resetSeconds: 30 }],
    ['"default";r=2.5;t=30', { policy: 'default', remaining: undefined, resetSeconds: 30 }],
    ['"default";r="5";t=30', { policy: 'default', remaining: undefined, resetSeconds: 30 }],
  ])('RateLimit %j', (header, expected) => {
    expect(parseRateLimit(header)).toEqual(expected);
  });

  it.each([
    ['"default";q=120;w=60', { policy: 'default', quota: 120, windowSeconds: 60 }],
    ['"default";w=60;q=120', { policy: 'default', quota: 120, windowSeconds: 60 }],
    ['"a";q=1;w=1, "default";q=120;w=60', { policy: 'default', quota: 120, windowSeconds: 60 }],
  ])('RateLimit-Policy %j', (header, expected) => {
    expect(parseRateLimitPolicy(header)).toEqual(expected);
  });

  it.each([
    [''],
    ['garbage;;;'],
    [';r=5'],
    ['"unterminated;r=5'],
    ['"default";R=5'],
    ['"x";r=5;t=30'.repeat(500)],
    [null],
  ])('garbage %j yields nothing usable', (header) => {
    const parsed = parseRateLimit(header);
    expect(parsed?.remaining).toBeUndefined();
  });

  it('keeps quoted commas and semicolons inside one item', () => {
    expect(parseStructuredList('"a,b;c";r=1')).toEqual([{ name: 'a,b;c', params: { r: 1 } }]);
  });

  it('keeps an escaped quote from ending a quoted item, and splits after it', () => {
    expect(parseStructuredList('"a\\",b";r=1, "day";r=2;t=60')).toEqual([
      { name: 'a",b', params: { r: 1 } },
      { name: 'day', params: { r: 2, t: 60 } },
    ]);
  });
});

describe('retryAtFrom', () => {
  const headers = (init: Record<string, string>) => new Headers(init);
  it.each([
    ['Retry-After wins over RateLimit-Reset', { 'retry-after': '5', 'ratelimit-reset': '50' }, NOW + 5_000],
    [
      'RateLimit-Reset when Retry-After is garbage',
      { 'retry-after': 'later', 'ratelimit-reset': '50' },
      NOW + 50_000,
    ],
    ['RateLimit t when nothing else', { ratelimit: '"default";r=0;t=9' }, NOW + 9_000],
    ['a short fallback when the service says nothing', {}, NOW + 1_000],
  ])('%s', (_name, init, expected) => {
    expect(retryAtFrom(headers(init), NOW)).toBe(expected);
  });
});

describe('RateLimitGate', () => {
  function gate(holdStore = memoryHoldStore()) {
    const clock = fakeClock();
    const instance = new RateLimitGate({
      origin: 'https://api.example.test',
      now: clock.now,
      sleep: clock.sleep,
      holdStore,
      maxInWorkerWaitMs: 20_000,
    });
    return { instance, clock, holdStore };
  }

  it('after a 429 every caller waits until the hold ends, once each, not in series', async () => {
    const { instance, clock } = gate();
    instance.observe(429, new Headers({ 'retry-after': '3' }));
    await Promise.all([
      instance.waitTurn('listPlaybooks'),
      instance.waitTurn('getAccount'),
      instance.waitTurn('getStatus'),
    ]);
    expect(clock.now()).toBeGreaterThanOrEqual(START + 3_000);
    expect(clock.now()).toBeLessThan(START + 6_000);
  });

  it('persists the hold so a restarted worker still honours it', async () => {
    const first = gate();
    first.instance.observe(429, new Headers({ 'retry-after': '8' }));
    await Promise.resolve();
    expect(first.holdStore.values.get('https://api.example.test')).toBe(START + 8_000);
    const restarted = gate(first.holdStore);
    await restarted.instance.waitTurn('getAccount');
    expect(restarted.clock.sleeps).toEqual([8_000]);
  });

  it('a wait too long for the worker becomes a deferred error with retryAt', async () => {
    const { instance } = gate();
    instance.observe(429, new Headers({ 'retry-after': '120' }));
    const error = (await rejection(instance.waitTurn('listPlaybooks'))) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.kind).toBe('deferred');
    expect(error.retryAt).toBe(START + 120_000);
  });

  it('exposes remaining, quota, reset and the hold for the popup', () => {
    const { instance } = gate();
    instance.observe(
      200,
      new Headers({ ratelimit: '"default";r=4;t=30', 'ratelimit-policy': '"default";q=120;w=60' }),
    );
    expect(instance.state()).toEqual({
      origin: 'https://api.example.test',
      remaining: 4,
      quota: 120,
      windowSeconds: 60,
      resetAt: START + 30_000,
      heldUntil: undefined,
    });
    instance.observe(429, new Headers({ 'retry-after': '2' }));
    expect(instance.state().heldUntil).toBe(START + 2_000);
  });

  it('reads every response afresh: a repeated header counts from its own response, a changed one is re-read', () => {
    const { instance, clock } = gate();
    const headers = new Headers({
      ratelimit: '"default";r=4;t=30',
      'ratelimit-policy': '"default";q=120;w=60',
    });
    instance.observe(200, headers);
    clock.advance(10_000);
    instance.observe(200, headers);
    expect(instance.state()).toMatchObject({ remaining: 4, quota: 120, resetAt: START + 40_000 });
    instance.observe(
      200,
      new Headers({ ratelimit: '"default";r=3;t=5', 'ratelimit-policy': '"default";q=60;w=30' }),
    );
    expect(instance.state()).toMatchObject({
      remaining: 3,
      quota: 60,
      windowSeconds: 30,
      resetAt: START + 15_000,
    });
    instance.observe(200, headers);
    expect(instance.state()).toMatchObject({ remaining: 4, quota: 120, windowSeconds: 60 });
  });

  it('holds back when nothing remains in the window instead of provoking a 429', async () => {
    const { instance, clock } = gate();
    instance.observe(200, new Headers({ ratelimit: '"default";r=0;t=4' }));
    await instance.waitTurn('getAccount');
    expect(clock.sleeps).toEqual([4_000]);
  });

  it('a shorter later hold never shortens a longer one', () => {
    const { instance } = gate();
    instance.observe(429, new Headers({ 'retry-after': '10' }));
    instance.observe(429, new Headers({ 'retry-after': '1' }));
    expect(instance.state().heldUntil).toBe(START + 10_000);
  });

  it('the default hold store keeps the hold in storage.session', async () => {
    const store = sessionHoldStore();
    await store.set('https://api.example.test', 1234);
    expect(await fakeBrowser.storage.session.get('api.rateLimitHold.https://api.example.test')).toEqual({
      'api.rateLimitHold.https://api.example.test': 1234,
    });
    expect(await store.get('https://api.example.test')).toBe(1234);
    expect(await fakeBrowser.storage.local.get(null)).toEqual({});
  });
});

describe('sharedRateLimitGate', () => {
  it('gives every client of one origin the same gate, and another origin its own', () => {
    const clock = fakeClock();
    const options = (origin: string) => ({
      origin,
      now: clock.now,
      sleep: clock.sleep,
      maxInWorkerWaitMs: 20_000,
    });
    const first = sharedRateLimitGate(options('https://shared.example.test'));
    const second = sharedRateLimitGate(options('https://shared.example.test'));
    const other = sharedRateLimitGate(options('https://other.example.test'));
    expect(second).toBe(first);
    expect(other).not.toBe(first);
    first.observe(429, new Headers({ 'retry-after': '4' }));
    expect(second.state().heldUntil).toBe(START + 4_000);
    expect(other.state().heldUntil).toBeUndefined();
  });
});
