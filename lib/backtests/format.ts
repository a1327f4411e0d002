/**
 * Backtest figures in the user's locale (Intl): returns and drawdowns are fractions shown as
 * percentages to one decimal; Sharpe is a plain ratio to two. Also the one-line result the
 * `backtest.completed` notification shows.
 */
import { backtestCompletedSchema } from './schema';

export function formatPercent(fraction: number, locale?: string, signed = false): string {
  return new Intl.NumberFormat(locale, {
    style: 'percent',
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
    signDisplay: signed ? 'exceptZero' : 'auto',
  }).format(fraction);
}

export function formatRatio(value: number, locale?: string): string {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
}

export function formatGrowth(value: number, locale?: string): string {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 3, maximumFractionDigits: 3 }).format(value);
}

/** `YYYY-MM-DD` as a date in the user's locale, read as a calendar day (UTC), not a local instant. */
export function formatDay(date: string, locale?: string): string {
  const time = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(time)) return date;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(time);
}

const BENCHMARK = /^[A-Z0-9.^-]{1,12}$/;

/**
 * "+12.3% vs SPY +8.7%, max drawdown −15.4%" from a completion event's data, or undefined when
 * the data is not the contract's. Only validated numbers and a ticker-shaped benchmark reach it.
 */
export function backtestResultLine(data: unknown, benchmark?: string, locale?: string): string | undefined {
  const parsed = backtestCompletedSchema.safeParse(data);
  if (!parsed.success) return undefined;
  const { total_return, benchmark_return, max_drawdown } = parsed.data;
  const against = benchmark && BENCHMARK.test(benchmark) ? benchmark : 'benchmark';
  return `${formatPercent(total_return, locale, true)} vs ${against} ${formatPercent(benchmark_return, locale, true)}, max drawdown ${formatPercent(max_drawdown, locale)}`;
}
