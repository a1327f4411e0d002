/**
 * The sandbox's backtesting engine: a seeded model of daily returns. Each day's return is a
 * function of the day itself (and of the benchmark, and for the playbook of the playbook), never
 * of the window asked for, as in a real market: two backtests that share dates agree on them, so
 * a comparison over the shared period shows one benchmark return. The benchmark follows a drift
 * plus noise and stressed quarters of its own calendar; the playbook follows it with its own beta,
 * alpha and noise, harder in the stress, so a drawdown and a difference to the benchmark show.
 */
import { createHash } from 'node:crypto';

export const MAX_EQUITY_POINTS = 2000;
/** Windows longer than this are cut short: the engine's cost stays bounded whatever the request. */
const MAX_TRADING_DAYS = 30 * 261;
const TRADING_DAYS_PER_YEAR = 252;
const DAY_MS = 86_400_000;

export interface EquityPoint {
  date: string;
  value: number;
  benchmark: number;
}

export interface BacktestMetrics {
  total_return: number;
  benchmark_return: number;
  cagr: number;
  max_drawdown: number;
  sharpe: number;
  volatility: number;
}

export interface BacktestResult {
  metrics: BacktestMetrics;
  equity: EquityPoint[];
}

/** mulberry32: a small, well-known 32-bit generator; enough for a demo series. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function normal(random: () => number): number {
  const u = Math.max(random(), Number.EPSILON);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** Weekdays from start to end inclusive (UTC), at most MAX_TRADING_DAYS. */
export function tradingDays(start: string, end: string): string[] {
  const days: string[] = [];
  const last = Date.parse(`${end}T00:00:00Z`);
  for (let t = Date.parse(`${start}T00:00:00Z`); t <= last && days.length < MAX_TRADING_DAYS; t += DAY_MS) {
    const weekday = new Date(t).getUTCDay();
    if (weekday !== 0 && weekday !== 6) days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days.length > 0 ? days : [start];
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

function maxDrawdown(values: number[]): number {
  let peak = values[0] ?? 1;
  let worst = 0;
  for (const value of values) {
    peak = Math.max(peak, value);
    worst = Math.min(worst, value / peak - 1);
  }
  return worst;
}

function stats(returns: number[]): { mean: number; sd: number } {
  if (returns.length < 2) return { mean: 0, sd: 0 };
  const mean = returns.reduce((sum, r) => sum + r, 0) / returns.length;
  const variance = returns.reduce((sum, r) => sum + (r - mean) ** 2, 0) / (returns.length - 1);
  return { mean, sd: Math.sqrt(variance) };
}

/** Every `step`-th point and the last, so a long window stays within MAX_EQUITY_POINTS. */
function thin<T>(points: T[]): T[] {
  if (points.length <= MAX_EQUITY_POINTS) return points;
  const step = Math.ceil((points.length - 1) / (MAX_EQUITY_POINTS - 1));
  const kept = points.filter((_point, i) => i % step === 0);
  if ((points.length - 1) % step !== 0) kept.push(points[points.length - 1]);
  return kept;
}

/** A 32-bit seed from text. */
const seedOf = (text: string) => createHash('sha256').update(text).digest();

/** A generator for one day of one series: the series' seed mixed with the day's number. */
function daily(seed: number, day: number): () => number {
  return generator(seed ^ Math.imul(day + 1, 0x9e3779b1));
}

/** A uniform number in [0, 1) fixed by the series' seed and an integer (a day, a quarter). */
const uniform = (seed: number, n: number) => daily(seed, n)();

/** Days since 1970-01-01 and the calendar quarter of a full-date. */
function calendar(date: string): { day: number; quarter: number } {
  const t = Date.parse(`${date}T00:00:00Z`);
  const d = new Date(t);
  return { day: Math.round(t / DAY_MS), quarter: d.getUTCFullYear() * 4 + Math.floor(d.getUTCMonth() / 3) };
}

/** About one quarter in four is a stress quarter of the benchmark's calendar, with its own drop. */
const STRESS_SHARE = 0.25;
const QUARTER_DAYS = 63;

export function simulateBacktest(
  playbookId: string,
  start: string,
  end: string,
  benchmark: string,
): BacktestResult {
  // The market is the benchmark's, the same for every playbook and window; the playbook's own
  // seed sets how it follows it.
  const market = seedOf(`market:${benchmark}`);
  const own = seedOf(`own:${playbookId}:${benchmark}`);
  const marketSeed = market.readUInt32BE(0);
  const stressSeed = market.readUInt32BE(12);
  const ownSeed = own.readUInt32BE(0);
  const share = (digest: Buffer, byte: number) => digest[byte] / 255;
  const benchDrift = (0.04 + share(market, 4) * 0.08) / TRADING_DAYS_PER_YEAR;
  const benchVol = (0.13 + share(market, 5) * 0.07) / Math.sqrt(TRADING_DAYS_PER_YEAR);
  const beta = 0.8 + share(own, 6) * 0.5;
  const alpha = (-0.06 + share(own, 7) * 0.16) / TRADING_DAYS_PER_YEAR;
  const ownVol = (0.08 + share(own, 8) * 0.08) / Math.sqrt(TRADING_DAYS_PER_YEAR);
  const ownStress = 0.3 + share(own, 9) * 0.6;
  /** The daily log-drift of a stressed quarter (0 when the quarter is calm). */
  const stressOf = (quarter: number) => {
    if (uniform(stressSeed, quarter * 2) >= STRESS_SHARE) return 0;
    const drop = 0.12 + uniform(stressSeed, quarter * 2 + 1) * 0.18;
    return Math.log(1 - drop) / QUARTER_DAYS;
  };

  const days = tradingDays(start, end);

  const equity: EquityPoint[] = [];
  const values: number[] = [];
  const benches: number[] = [];
  const ownReturns: number[] = [];
  let value = 1;
  let bench = 1;
  days.forEach((date, i) => {
    if (i > 0) {
      const { day, quarter } = calendar(date);
      const stressDaily = stressOf(quarter);
      const marketReturn = benchDrift + benchVol * normal(daily(marketSeed, day)) + stressDaily * 0.6;
      const ownReturn = Math.max(
        -0.5,
        alpha + beta * marketReturn + ownVol * normal(daily(ownSeed, day)) + stressDaily * ownStress,
      );
      bench *= 1 + Math.max(-0.5, marketReturn);
      value *= 1 + ownReturn;
      ownReturns.push(ownReturn);
    }
    values.push(value);
    benches.push(bench);
    equity.push({ date, value: round(value, 4), benchmark: round(bench, 4) });
  });

  const years = Math.max(
    (Date.parse(`${days[days.length - 1]}T00:00:00Z`) - Date.parse(`${days[0]}T00:00:00Z`)) /
      (365.25 * DAY_MS),
    1 / 365.25,
  );
  const { mean, sd } = stats(ownReturns);
  return {
    metrics: {
      total_return: round(value - 1, 4),
      benchmark_return: round(bench - 1, 4),
      cagr: round(value ** (1 / years) - 1, 4),
      max_drawdown: round(maxDrawdown(values), 4),
      sharpe: sd > 0 ? round((mean / sd) * Math.sqrt(TRADING_DAYS_PER_YEAR), 2) : 0,
      volatility: round(sd * Math.sqrt(TRADING_DAYS_PER_YEAR), 4),
    },
    equity: thin(equity),
  };
}
