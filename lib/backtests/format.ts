/**
 * Backtest figures in the UI language (lib/i18n's Intl formatters): returns and drawdowns are
 * fractions shown as percentages to one decimal; Sharpe is a plain ratio to two. Also the one-line
 * result the `backtest.completed` notification shows.
 */
import { formatDate, formatFixed, formatPercent as percent, t } from '@/lib/i18n';
import { cachedIntl } from '@/lib/i18n/locale';
import { backtestCompletedSchema } from '@/lib/contract/backtest';

/**
 * Beyond this magnitude a figure is no backtest's (a return of 100,000,000 %, a Sharpe ratio or a
 * growth of a million): it is shown as "–", like a non-finite one, never as ∞, NaN or 400 digits.
 * The schema lets only finite numbers through; this keeps every formatter safe on its own.
 */
const MAX_FIGURE = 1_000_000;

function figure(value: number, format: (value: number) => string): string {
  return Number.isFinite(value) && Math.abs(value) <= MAX_FIGURE
    ? format(value)
    : t('backtests.chart.noValue');
}

/**
 * A fraction as a percentage to one decimal place (CONTRACT.md section 6): 0.123 → "12.3%" / "12,3 %";
 * a negative one with the real minus, as every figure (lib/i18n's formatters write it).
 */
export function formatPercent(fraction: number, signed = false): string {
  return figure(fraction, (value) => percent(value, 1, signed));
}

/**
 * A return as the chart, its readout and tables say it: a signed percentage to one decimal with the
 * real minus ("+12.3%", "−15.4%", "0.0%"); `signed` false for a drawdown, which is never positive.
 */
export function formatReturn(fraction: number, signed = true): string {
  return formatPercent(fraction, signed);
}

/** A percent axis label with `digits` decimals: "+20%", "−10%", "0%", "+2.5%". */
export function formatAxisPercent(fraction: number, digits: number): string {
  return figure(fraction, (value) => percent(value, digits, true));
}

/** A dates-axis label: "Jan 2022" over a long range, "Jan 3" over a short one, in the UI language. */
export function formatAxisDate(date: string, months: boolean): string {
  const match = DAY.exec(date);
  if (!match) return date;
  const time = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  if (!Number.isFinite(time)) return date;
  const format = months
    ? cachedIntl(
        'axis-m',
        (l) => new Intl.DateTimeFormat(l, { month: 'short', year: 'numeric', timeZone: 'UTC' }),
      )
    : cachedIntl(
        'axis-d',
        (l) => new Intl.DateTimeFormat(l, { month: 'short', day: 'numeric', timeZone: 'UTC' }),
      );
  return format.format(time);
}

/** A Sharpe ratio to two decimals, with the real minus like the returns beside it: "1.20", "−0.22". */
export function formatRatio(value: number): string {
  return figure(value, (v) => formatFixed(v, 2));
}

export function formatGrowth(value: number): string {
  return figure(value, (v) => formatFixed(v, 3));
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * `YYYY-MM-DD` as a date in the UI language, read as a calendar day: built at local midnight of
 * that day, so no time zone moves it to the day before.
 */
export function formatDay(date: string): string {
  const match = DAY.exec(date);
  if (!match) return date;
  const [year, month, dayOfMonth] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const day = new Date(2000, 0, 1);
  day.setFullYear(year, month, dayOfMonth);
  // 2024-02-30 would roll over into March: not a calendar day, so shown as sent.
  if (day.getMonth() !== month || day.getDate() !== dayOfMonth) return date;
  return formatDate(day) || date;
}

const BENCHMARK = /^[A-Z0-9.^-]{1,12}$/;

/**
 * "+12.3% vs SPY +8.7%, max drawdown −15.4%" from a completion event's data, or undefined when
 * the data is not the contract's. Only validated numbers and a ticker-shaped benchmark reach it.
 */
export function backtestResultLine(data: unknown, benchmark?: string): string | undefined {
  const parsed = backtestCompletedSchema.safeParse(data);
  if (!parsed.success) return undefined;
  const { total_return, benchmark_return, max_drawdown } = parsed.data;
  return t('backtests.resultLine', {
    total: formatPercent(total_return, true),
    benchmark: benchmark && BENCHMARK.test(benchmark) ? benchmark : t('backtests.benchmarkWord'),
    benchmarkReturn: formatPercent(benchmark_return, true),
    drawdown: formatPercent(max_drawdown),
  });
}

/** How the equity chart words its dates and returns (components/EquityChart.tsx's `format`). */
export const chartFormat = {
  date: formatDay,
  axisDate: formatAxisDate,
  return: (fraction: number) => formatReturn(fraction),
  axisPercent: formatAxisPercent,
};
