/**
 * The pricing table's cells in the user's words: a plain price ("$29", "29 €", "USD 29 / month")
 * in the locale's currency format, a plain rate limit ("60 requests / minute") in the user's
 * language. Anything else the service wrote is shown as sent.
 */
import { formatCurrency, formatNumber, plural, t, type TextKey } from '@/lib/i18n';

const SYMBOLS: Readonly<Record<string, string>> = { $: 'USD', '€': 'EUR', '£': 'GBP' };

const PRICE =
  /^(?<before>[$€£]|[A-Z]{3})?\s*(?<amount>\d{1,3}(?:,\d{3})*(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?)(?:\s*(?<after>€|[A-Z]{3}))?(?:\s*\/\s*(?:month|mo))?$/i;

/** A price cell in the locale's currency format, or null when it is not a plain amount in a known currency. */
export function formattedPrice(cell: string): string | null {
  const match = PRICE.exec(cell.trim());
  const { before, amount, after } = match?.groups ?? {};
  if (!amount || (before && after)) return null;
  const mark = before ?? after;
  if (!mark) return null;
  const currency = SYMBOLS[mark] ?? mark.toUpperCase();
  return formatCurrency(Number(amount.replace(/,/g, '')), currency);
}

const PERIODS: Readonly<Record<string, TextKey>> = {
  second: 'sidepanel.discovery.per.second',
  minute: 'sidepanel.discovery.per.minute',
  hour: 'sidepanel.discovery.per.hour',
  day: 'sidepanel.discovery.per.day',
  month: 'sidepanel.discovery.per.month',
};

const RATE =
  /^(?<count>\d{1,3}(?:,\d{3})+|\d+)\s*requests?\s*(?:\/|per)\s*(?<period>second|minute|hour|day|month)$/i;

/** A limits cell ("60 requests / minute") in the user's language, or null when it says something else. */
export function formattedLimits(cell: string): string | null {
  const { count, period } = RATE.exec(cell.trim())?.groups ?? {};
  if (!count || !period) return null;
  const requests = Number(count.replace(/,/g, ''));
  return plural('sidepanel.discovery.requestsPer', requests, {
    count: formatNumber(requests),
    per: t(PERIODS[period.toLowerCase()]),
  });
}
