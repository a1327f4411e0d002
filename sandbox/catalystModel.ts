/**
 * Catalysts and performance since capture (CONTRACT.md section 2.1): the seeded catalysts,
 * placed relative to the day the store was seeded, and the deterministic price model behind
 * `getPlaybookPerformance`. Prices are made so that every return is an exact fraction: a start
 * price that is a multiple of 5 and a whole-percent move, so `return` is `p / 100`.
 */

export const CATALYST_KINDS = [
  'earnings',
  'dividend',
  'filing',
  'economic',
  'regulatory',
  'product',
  'other',
] as const;
export type CatalystKind = (typeof CATALYST_KINDS)[number];
export const CATALYST_STATUSES = ['confirmed', 'estimated', 'cancelled'] as const;
export type CatalystStatus = (typeof CATALYST_STATUSES)[number];
export const CATALYST_SESSIONS = ['pre-market', 'after-close', 'unknown'] as const;
export type CatalystSession = (typeof CATALYST_SESSIONS)[number];

/** At most this many playbook ids on one catalyst (the newest first). */
export const MAX_CATALYST_PLAYBOOKS = 50;

/** A catalyst as stored, without the caller-specific `playbook_ids`. */
export interface CatalystRecord {
  id: string;
  ticker: string;
  kind: CatalystKind;
  title: string;
  /** A full-date when `all_day`, else an RFC 3339 date-time in UTC (`…Z`, whole seconds). */
  at: string;
  all_day: boolean;
  status: CatalystStatus;
  session?: CatalystSession;
  source_url?: string;
  sequence: number;
  updated_at: string;
}

export interface Catalyst extends CatalystRecord {
  playbook_ids: string[];
}

const DAY_MS = 86_400_000;

/** The UTC date `days` after the one of `now`, as YYYY-MM-DD. */
export function utcDate(now: number, days = 0): string {
  return new Date(now + days * DAY_MS).toISOString().slice(0, 10);
}

/** An RFC 3339 date-time in UTC with whole seconds, as the sandbox stores them. */
export function utcDateTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

interface SeedCatalyst extends Omit<CatalystRecord, 'at' | 'sequence' | 'updated_at'> {
  /** Days from the seed day. */
  day: number;
  /** Time of day in UTC for a date-time catalyst, e.g. `21:00`. */
  time?: string;
}

/**
 * The seeded catalysts. Their tickers are the first two of a sample theme (seed.ts), which every
 * demo playbook of that theme tracks, so they link to the demo playbooks once 12 are seeded.
 */
const SEEDED: SeedCatalyst[] = [
  {
    id: 'cat_nvda_q_earnings',
    ticker: 'NVDA',
    kind: 'earnings',
    title: 'NVIDIA quarterly earnings',
    day: 1,
    time: '21:20',
    all_day: false,
    status: 'confirmed',
    session: 'after-close',
    source_url: 'https://investor.example.com/nvda/events',
  },
  {
    id: 'cat_amd_q_earnings',
    ticker: 'AMD',
    kind: 'earnings',
    title: 'AMD quarterly earnings',
    day: 3,
    all_day: true,
    status: 'estimated',
    session: 'unknown',
  },
  {
    id: 'cat_lly_fda_decision',
    ticker: 'LLY',
    kind: 'regulatory',
    title: 'FDA advisory committee on a new obesity indication',
    day: 2,
    all_day: true,
    status: 'cancelled',
  },
  {
    id: 'cat_nee_dividend',
    ticker: 'NEE',
    kind: 'dividend',
    title: 'Quarterly dividend, ex-dividend date',
    day: 4,
    all_day: true,
    status: 'confirmed',
  },
  {
    id: 'cat_cat_construction',
    ticker: 'CAT',
    kind: 'economic',
    title: 'US construction spending, monthly release',
    day: 6,
    time: '14:00',
    all_day: false,
    status: 'confirmed',
    session: 'pre-market',
  },
  {
    id: 'cat_amd_product',
    ticker: 'AMD',
    kind: 'product',
    title: 'Data-centre GPU launch event; date, venue and pricing to be announced',
    day: 120,
    all_day: true,
    status: 'estimated',
  },
  {
    id: 'cat_7203_earnings',
    ticker: '7203.T',
    kind: 'earnings',
    title: 'トヨタ自動車 第2四半期決算発表（連結）・説明会のライブ配信あり',
    day: 5,
    time: '06:25',
    all_day: false,
    status: 'estimated',
    session: 'after-close',
  },
  {
    id: 'cat_crwd_past_earnings',
    ticker: 'CRWD',
    kind: 'earnings',
    title: 'CrowdStrike quarterly earnings',
    day: -1,
    time: '21:05',
    all_day: false,
    status: 'confirmed',
    session: 'after-close',
  },
];

/** The seeded catalysts as of `now` (epoch ms): the same days from the seed day on every run. */
export function seededCatalysts(now: number): CatalystRecord[] {
  const updatedAt = utcDateTime(now);
  return SEEDED.map(({ day, time, ...rest }) => ({
    ...rest,
    at: time ? `${utcDate(now, day)}T${time}:00Z` : utcDate(now, day),
    sequence: 1,
    updated_at: updatedAt,
  }));
}

// --- performance since capture -------------------------------------------------------------------

export const BENCHMARK_SYMBOL = 'SPY';

export interface TickerPerformance {
  symbol: string;
  currency: string;
  start_price: number;
  last_price: number;
  return: number;
}

export interface Performance {
  playbook_id: string;
  since: string;
  as_of: string;
  return: number | null;
  benchmark: { symbol: string; return: number };
  tickers: TickerPerformance[];
}

/** FNV-1a, 32 bits: a stable hash, so the same ticker and day always give the same prices. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

const CURRENCY_BY_SUFFIX: Record<string, string> = { DE: 'EUR', L: 'GBP', ST: 'SEK', T: 'JPY' };

function currencyOf(symbol: string): string {
  const dot = symbol.lastIndexOf('.');
  return (dot > 0 && CURRENCY_BY_SUFFIX[symbol.slice(dot + 1)]) || 'USD';
}

/**
 * One ticker's figures from `since` to `asOf`: start a multiple of 5 from 40 to 235, a whole-percent
 * move `p` from -20 to +40, so `return` is exactly `p / 100`. Nothing moved when `since` is not
 * before `asOf` (captured after the last close).
 */
export function tickerPerformance(symbol: string, since: string, asOf: string): TickerPerformance {
  const h = hash32(`${symbol}|${since}`);
  const start = 40 + (h % 40) * 5;
  const percent = since < asOf ? ((h >>> 8) % 61) - 20 : 0;
  return {
    symbol,
    currency: currencyOf(symbol),
    start_price: start,
    last_price: (start * (100 + percent)) / 100,
    return: percent / 100,
  };
}

/** The last weekday before the UTC day of `now`: the close the figures use. */
export function lastClose(now: number): string {
  for (let days = 1; ; days++) {
    const weekday = new Date(now - days * DAY_MS).getUTCDay();
    if (weekday !== 0 && weekday !== 6) return utcDate(now, -days);
  }
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** A playbook's performance since the day it was created (`createdAt`, RFC 3339). */
export function playbookPerformance(
  playbook: { id: string; tickers: string[]; created_at: string },
  now: number,
): Performance {
  const since = playbook.created_at.slice(0, 10);
  const asOf = lastClose(now);
  const tickers = playbook.tickers.map((symbol) => tickerPerformance(symbol, since, asOf));
  const mean = tickers.length ? round6(tickers.reduce((sum, t) => sum + t.return, 0) / tickers.length) : null;
  return {
    playbook_id: playbook.id,
    since,
    as_of: asOf,
    return: mean,
    benchmark: { symbol: BENCHMARK_SYMBOL, return: tickerPerformance(BENCHMARK_SYMBOL, since, asOf).return },
    tickers,
  };
}
