/**
 * Numbers, percentages, money, dates and "3 minutes ago", in the browser's UI language (Intl).
 * Each formatter is built once per page: building one loads the language's data.
 */
import { cachedIntl as cached } from './locale';
import { t } from './messages';

/** U+2212, the minus sign typography uses for figures; Intl writes a hyphen-minus in most languages. */
const MINUS = '\u2212';

/** A formatted figure's sign as the real minus: "-15.4%" → "−15.4%" (digits, marks and % kept). */
function withMinus(text: string): string {
  return text.replace(/-/g, MINUS);
}

/** 1,234.5 / 1.234,5 / 1 234,5: a plain number with at most `digits` decimals. */
export function formatNumber(value: number, digits = 2): string {
  return cached(`n${digits}`, (l) => new Intl.NumberFormat(l, { maximumFractionDigits: digits })).format(
    value,
  );
}

/** Exactly `digits` decimals (a Sharpe ratio, a growth factor): 1.2 → "1.20", −0.2 → "−0.20" / "−0,20". */
export function formatFixed(value: number, digits: number): string {
  return withMinus(
    cached(
      `f${digits}`,
      (l) => new Intl.NumberFormat(l, { minimumFractionDigits: digits, maximumFractionDigits: digits }),
    ).format(value),
  );
}

/**
 * A ratio settled to 12 decimals before it is rounded for show: a return worked out from a growth
 * of 1 (1.1945 − 1 = 0.19449999999999990) then rounds as the service's own figure (0.1945) does,
 * so one period's return reads "+19.5%" in the figures and the chart alike, not "+19.4%" in one.
 */
const settled = (ratio: number) => (Number.isFinite(ratio) ? Math.round(ratio * 1e12) / 1e12 : ratio);

/** A ratio as a percentage with `digits` decimals and the real minus: 0.123 → "12.3%" / "12,3 %", −0.1 → "−10.0%". */
export function formatPercent(ratio: number, digits = 1, signed = false): string {
  return withMinus(
    cached(
      `p${digits}${signed ? 's' : ''}`,
      (l) =>
        new Intl.NumberFormat(l, {
          style: 'percent',
          minimumFractionDigits: digits,
          maximumFractionDigits: digits,
          signDisplay: signed ? 'exceptZero' : 'auto',
        }),
    ).format(settled(ratio)),
  );
}

/** Money in an ISO 4217 currency; an unknown code falls back to the number and the code. */
export function formatCurrency(value: number, currency: string): string {
  const code = /^[A-Z]{3}$/i.test(currency) ? currency.toUpperCase() : '';
  if (!code) return formatNumber(value);
  return cached(`c${code}`, (l) => new Intl.NumberFormat(l, { style: 'currency', currency: code })).format(
    value,
  );
}

function toTime(at: number | string | Date): number {
  return at instanceof Date ? at.getTime() : typeof at === 'string' ? Date.parse(at) : at;
}

/** A calendar date ("25 Nov 2026", "2026/11/25"); "" for an invalid one. */
export function formatDate(at: number | string | Date): string {
  const time = toTime(at);
  if (!Number.isFinite(time)) return '';
  return cached('d', (l) => new Intl.DateTimeFormat(l, { dateStyle: 'medium' })).format(time);
}

/** A date and time of day; "" for an invalid one. */
export function formatDateTime(at: number | string | Date): string {
  const time = toTime(at);
  if (!Number.isFinite(time)) return '';
  return cached('dt', (l) => new Intl.DateTimeFormat(l, { dateStyle: 'medium', timeStyle: 'short' })).format(
    time,
  );
}

/** Hours and minutes ("14:05", "2:05 PM", never "02:05 PM"); "" for an invalid time. */
export function formatClock(at: number | string | Date): string {
  const time = toTime(at);
  if (!Number.isFinite(time)) return '';
  return cached('hm', (l) => new Intl.DateTimeFormat(l, { hour: 'numeric', minute: '2-digit' })).format(time);
}

const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Infinity],
];

/**
 * "3 minutes ago", "vor 3 Minuten", "in 2 hours", "now": `at` against `now`, in the largest
 * unit that fits. "" for an invalid time.
 */
export function formatRelative(at: number | string | Date, now: number = Date.now()): string {
  const time = toTime(at);
  if (!Number.isFinite(time)) return '';
  const format = cached('r', (l) => new Intl.RelativeTimeFormat(l, { numeric: 'auto' }));
  let amount = (time - now) / 1000;
  if (Math.abs(amount) < 45) return format.format(0, 'second');
  for (const [unit, size] of UNITS) {
    if (Math.abs(amount) < size) return format.format(Math.round(amount), unit);
    amount /= size;
  }
  return format.format(Math.round(amount), 'year');
}

/** Items joined with the UI language's list separator (", ", "、", "، "): tickers, origins, names. */
export function formatList(items: readonly string[]): string {
  return items.join(t('common.separator.list'));
}
