/**
 * Rate-limit headers and the one gate per API origin. A limit applies to the key, so after a 429
 * every caller waits until the hold ends, and the hold survives a service-worker restart.
 */
import { t } from '@/lib/i18n';
import { browser } from 'wxt/browser';
import { ApiError, retryTime } from './errors';
import { log } from '@/lib/log';
import { STORAGE_ITEMS } from '@/lib/store/inventory';
import type { RateLimitState } from '@/lib/contract/api';

export type { RateLimitState } from '@/lib/contract/api';

/** Longest wait honoured from a header; anything longer is treated as this (a day). */
export const MAX_HEADER_WAIT_MS = 24 * 60 * 60 * 1000;

const DELTA_SECONDS = /^\s*(\d{1,10})\s*$/;
// IMF-fixdate, RFC 850 and asctime, the three forms of HTTP-date (RFC 9110 5.6.7).
const HTTP_DATE =
  /^\s*(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT|(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{2} \d{2}:\d{2}:\d{2} GMT|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2} \d{4})\s*$/;

function capped(now: number, waitMs: number): number {
  return now + Math.min(Math.max(0, waitMs), MAX_HEADER_WAIT_MS);
}

/** An HTTP-date (IMF-fixdate, RFC 850 or asctime) as epoch ms; `now` decides RFC 850's century. */
export function parseHttpDate(value: string, now: number = Date.now()): number | undefined {
  const text = value.trim();
  if (!HTTP_DATE.test(text)) return undefined;
  // RFC 850 and asctime are normalised first: engines read asctime (no zone) as local time.
  const normalised = text.endsWith('GMT')
    ? text.replace(
        /^(\w+), (\d{2})-(\w{3})-(\d{2}) /,
        (_m, day: string, date: string, month: string, yy: string) => {
          // RFC 9110: a two-digit year more than 50 years ahead belongs to the previous century.
          const year =
            2000 + Number(yy) > new Date(now).getUTCFullYear() + 50 ? 1900 + Number(yy) : 2000 + Number(yy);
          return `${day}, ${date} ${month} ${year} `;
        },
      )
    : `${text} GMT`;
  const at = Date.parse(normalised);
  return Number.isNaN(at) ? undefined : at;
}

/** `Retry-After` as the epoch ms to retry at: delta-seconds or HTTP-date; past dates mean now; garbage is undefined. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const delta = DELTA_SECONDS.exec(value);
  if (delta) return capped(now, Number(delta[1]) * 1000);
  const at = parseHttpDate(value, now);
  return at === undefined ? undefined : capped(now, at - now);
}

/** `RateLimit-Reset` (delta-seconds) as the epoch ms the window resets. */
export function parseRateLimitReset(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const delta = DELTA_SECONDS.exec(value);
  return delta ? capped(now, Number(delta[1]) * 1000) : undefined;
}

export interface StructuredItem {
  name: string;
  params: Record<string, number | string | boolean>;
}

const TOKEN = /^[A-Z*][\w:/!#$%&'*+\-.^`|~]*$/i;
const KEY = /^[a-z*][a-z0-9_\-.*]*$/;

function parseBareItem(text: string): string | number | boolean | undefined {
  if (/^-?\d{1,15}(\.\d{1,3})?$/.test(text)) return Number(text);
  if (text === '?1') return true;
  if (text === '?0') return false;
  if (/^"(?:[^"\\]|\\["\\])*"$/.test(text)) return text.slice(1, -1).replace(/\\(["\\])/g, '$1');
  if (TOKEN.test(text)) return text;
  return undefined;
}

/** Splits on a separator outside quoted strings, in one pass that slices instead of copying char by char. */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\\' && quoted) {
      i++;
      continue;
    }
    if (char === '"') quoted = !quoted;
    else if (char === separator && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * A Structured Field list as the IETF RateLimit draft uses it: `"default";r=5;t=30, "day";r=90;t=3600`.
 * Malformed members are skipped rather than failing the whole header.
 */
export function parseStructuredList(value: string | null | undefined): StructuredItem[] {
  if (!value || value.length > 4096) return [];
  const items: StructuredItem[] = [];
  for (const member of splitOutsideQuotes(value, ',')) {
    const [head, ...paramTexts] = splitOutsideQuotes(member.trim(), ';');
    const name = parseBareItem((head ?? '').trim());
    if (typeof name !== 'string') continue;
    const params: StructuredItem['params'] = {};
    let valid = true;
    for (const paramText of paramTexts) {
      const [rawKey, ...rest] = paramText.trim().split('=');
      const key = (rawKey ?? '').trim();
      if (!KEY.test(key)) {
        valid = false;
        break;
      }
      const bare = rest.length === 0 ? true : parseBareItem(rest.join('=').trim());
      if (bare === undefined) {
        valid = false;
        break;
      }
      params[key] = bare;
    }
    if (valid) items.push({ name, params });
  }
  return items;
}

function nonNegativeInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** Prefers the policy called "default", else the first one. */
function pickPolicy(items: StructuredItem[]): StructuredItem | undefined {
  return items.find((item) => item.name === 'default') ?? items[0];
}

export interface RateLimitRemaining {
  policy: string;
  remaining?: number;
  resetSeconds?: number;
}

/** `RateLimit: "default";r=5;t=30`. */
export function parseRateLimit(value: string | null | undefined): RateLimitRemaining | undefined {
  const item = pickPolicy(parseStructuredList(value));
  if (!item) return undefined;
  return {
    policy: item.name,
    remaining: nonNegativeInteger(item.params.r),
    resetSeconds: nonNegativeInteger(item.params.t),
  };
}

export interface RateLimitPolicy {
  policy: string;
  quota?: number;
  windowSeconds?: number;
}

/** `RateLimit-Policy: "default";q=120;w=60`. */
export function parseRateLimitPolicy(value: string | null | undefined): RateLimitPolicy | undefined {
  const item = pickPolicy(parseStructuredList(value));
  if (!item) return undefined;
  return {
    policy: item.name,
    quota: nonNegativeInteger(item.params.q),
    windowSeconds: nonNegativeInteger(item.params.w),
  };
}

/**
 * When to try again after a 429: Retry-After wins, then RateLimit-Reset, then the RateLimit
 * `t` parameter; `fallbackMs` when the service said nothing usable.
 */
export function retryAtFrom(headers: Headers, now: number, fallbackMs = 1000): number {
  return (
    parseRetryAfter(headers.get('retry-after'), now) ??
    parseRateLimitReset(headers.get('ratelimit-reset'), now) ??
    (() => {
      const seconds = parseRateLimit(headers.get('ratelimit'))?.resetSeconds;
      return seconds === undefined ? undefined : capped(now, seconds * 1000);
    })() ??
    now + fallbackMs
  );
}

/** Where the hold-until time lives so a restarted worker still honours it. */
export interface HoldStore {
  get(origin: string): Promise<number | undefined>;
  set(origin: string, heldUntil: number): Promise<void>;
}

const HOLD_KEY_PREFIX = STORAGE_ITEMS.rateLimitHolds.keyPrefix;

/** `storage.session`: survives worker restarts, not browser restarts, and stays out of content scripts' reach by default. */
export function sessionHoldStore(): HoldStore {
  const area = () => (browser.storage as { session?: typeof browser.storage.local }).session;
  return {
    async get(origin) {
      const session = area();
      if (!session) return undefined;
      const key = HOLD_KEY_PREFIX + origin;
      const stored = (await session.get(key))[key];
      return typeof stored === 'number' && Number.isFinite(stored) ? stored : undefined;
    },
    async set(origin, heldUntil) {
      await area()?.set({ [HOLD_KEY_PREFIX + origin]: heldUntil });
    },
  };
}

export interface RateLimitGateOptions {
  origin: string;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  holdStore?: HoldStore;
  /** Waits longer than this are not slept in the worker: the caller gets a 'deferred' error. */
  maxInWorkerWaitMs: number;
}

/** One per API origin, shared by every caller of that origin. */
export class RateLimitGate {
  private readonly options: RateLimitGateOptions;
  private snapshot: RateLimitState;
  private loaded: Promise<void> | undefined;
  // The headers mostly repeat from one response to the next (the policy always): parsed once per value.
  private lastRateLimit?: { value: string | null; parsed: RateLimitRemaining | undefined };
  private lastPolicy?: { value: string | null; parsed: RateLimitPolicy | undefined };

  constructor(options: RateLimitGateOptions) {
    this.options = options;
    this.snapshot = { origin: options.origin };
  }

  private async load(): Promise<void> {
    this.loaded ??= (async () => {
      try {
        const stored = await this.options.holdStore?.get(this.options.origin);
        if (stored !== undefined) this.extendHold(stored, false);
      } catch (error) {
        log.warn('api.ratelimit.load-failed', { origin: this.options.origin, error });
      }
    })();
    return this.loaded;
  }

  private extendHold(until: number, persist: boolean): void {
    if (until <= this.options.now() || (this.snapshot.heldUntil ?? 0) >= until) return;
    this.snapshot = { ...this.snapshot, heldUntil: until };
    if (persist && this.options.holdStore) {
      this.options.holdStore.set(this.options.origin, until).catch((error: unknown) => {
        log.warn('api.ratelimit.persist-failed', { origin: this.options.origin, error });
      });
    }
  }

  /** Waits until the origin is no longer held; throws 'deferred' when that is too long to wait in the worker. */
  async waitTurn(operationId: string, signal?: AbortSignal): Promise<void> {
    await this.load();
    for (;;) {
      const heldUntil = this.snapshot.heldUntil;
      const now = this.options.now();
      if (heldUntil === undefined || heldUntil <= now) return;
      const waitMs = heldUntil - now;
      if (waitMs > this.options.maxInWorkerWaitMs) {
        throw new ApiError({
          kind: 'deferred',
          operationId,
          retryAt: heldUntil,
          message: t('errors.api.rateLimitWait', { operation: operationId, time: retryTime(heldUntil, now) }),
        });
      }
      log.info('api.ratelimit.wait', { origin: this.options.origin, operationId, waitMs });
      await this.options.sleep(waitMs, signal);
    }
  }

  /** Records the rate-limit headers of any response; a 429 (or nothing remaining) holds the origin. */
  observe(status: number, headers: Headers): number | undefined {
    const now = this.options.now();
    const rateLimitValue = headers.get('ratelimit');
    if (this.lastRateLimit?.value !== rateLimitValue)
      this.lastRateLimit = { value: rateLimitValue, parsed: parseRateLimit(rateLimitValue) };
    const policyValue = headers.get('ratelimit-policy');
    if (this.lastPolicy?.value !== policyValue)
      this.lastPolicy = { value: policyValue, parsed: parseRateLimitPolicy(policyValue) };
    const remaining = this.lastRateLimit.parsed;
    const policy = this.lastPolicy.parsed;
    const next: RateLimitState = { ...this.snapshot };
    if (remaining?.remaining !== undefined) next.remaining = remaining.remaining;
    if (remaining?.resetSeconds !== undefined) next.resetAt = capped(now, remaining.resetSeconds * 1000);
    if (policy?.quota !== undefined) next.quota = policy.quota;
    if (policy?.windowSeconds !== undefined) next.windowSeconds = policy.windowSeconds;
    this.snapshot = next;
    if (status === 429) {
      const until = retryAtFrom(headers, now);
      this.extendHold(until, true);
      log.warn('api.ratelimit.hold', { origin: this.options.origin, heldUntil: until });
      return until;
    }
    // Nothing left in this window: hold back instead of provoking a 429.
    if (next.remaining === 0 && next.resetAt !== undefined) this.extendHold(next.resetAt, true);
    return undefined;
  }

  state(): RateLimitState {
    const heldUntil = this.snapshot.heldUntil;
    return {
      ...this.snapshot,
      heldUntil: heldUntil !== undefined && heldUntil > this.options.now() ? heldUntil : undefined,
    };
  }
}

const gatesByOrigin = new Map<string, RateLimitGate>();

/**
 * The one gate of an origin for this worker's lifetime: every client made for that origin shares
 * it, so a 429 seen by one holds back all. The hold itself also lives in the hold store.
 */
export function sharedRateLimitGate(options: RateLimitGateOptions): RateLimitGate {
  let gate = gatesByOrigin.get(options.origin);
  if (!gate) {
    gate = new RateLimitGate(options);
    gatesByOrigin.set(options.origin, gate);
  }
  return gate;
}
