/**
 * The sandbox's backtesting engine: a seeded model of daily returns, so the same playbook, window
 * and benchmark always give the same curve. The benchmark follows a drift plus noise; the playbook
 * follows it with its own beta, alpha and noise, and both go through one stress regime, so a
 * drawdown and a difference to the benchmark are visible on every curve.
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

export function simulateBacktest(
  playbookId: string,
  start: string,
  end: string,
  benchmark: string,
): BacktestResult {
  // The market is the same for every playbook over the same window and benchmark; the playbook's
  // own seed sets how it follows it.
  const market = createHash('sha256').update(`${benchmark}:${start}:${end}`).digest();
  const own = createHash('sha256').update(`${playbookId}:${start}:${end}:${benchmark}`).digest();
  const marketRandom = generator(market.readUInt32BE(0));
  const ownRandom = generator(own.readUInt32BE(0));
  const share = (digest: Buffer, byte: number) => digest[byte] / 255;
  const benchDrift = (0.04 + share(market, 4) * 0.08) / TRADING_DAYS_PER_YEAR;
  const benchVol = (0.13 + share(market, 5) * 0.07) / Math.sqrt(TRADING_DAYS_PER_YEAR);
  const beta = 0.8 + share(own, 6) * 0.5;
  const alpha = (-0.06 + share(own, 7) * 0.16) / TRADING_DAYS_PER_YEAR;
  const ownVol = (0.08 + share(own, 8) * 0.08) / Math.sqrt(TRADING_DAYS_PER_YEAR);
  const ownStress = 0.3 + share(own, 9) * 0.6;

  const days = tradingDays(start, end);
  // The stress regime: a stretch of the window where both fall, the playbook harder.
  const stressStart = Math.floor(days.length * (0.3 + share(market, 9) * 0.3));
  const stressLength = Math.max(1, Math.floor(days.length * (0.08 + share(market, 10) * 0.1)));
  const stressDrop = 0.12 + share(market, 11) * 0.18;
  const stressDaily = Math.log(1 - stressDrop) / stressLength;

  const equity: EquityPoint[] = [];
  const values: number[] = [];
  const benches: number[] = [];
  const ownReturns: number[] = [];
  let value = 1;
  let bench = 1;
  days.forEach((date, i) => {
    if (i > 0) {
      const stressed = i >= stressStart && i < stressStart + stressLength;
      const marketReturn = benchDrift + benchVol * normal(marketRandom) + (stressed ? stressDaily * 0.6 : 0);
      const ownReturn = Math.max(
        -0.5,
        alpha + beta * marketReturn + ownVol * normal(ownRandom) + (stressed ? stressDaily * ownStress : 0),
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
