/**
 * Ticker symbols: one canonical spelling for the many a page may use.
 *
 * Canonical form (Yahoo-like, upper case): US share class with a dot (`BRK.B`); a non-US listing
 * with its exchange suffix (`VOD.L`, `7203.T`); an index with a caret (`^GSPC`); a future `GC=F`;
 * a currency pair `EURUSD=X`; a crypto pair `BTC-USD`. US exchanges add no suffix.
 * The tables and word lists are data, in symbolData.ts.
 */
import {
  EXCHANGE_SUFFIX,
  FALSE_POSITIVE_WORDS,
  LISTING_SUFFIXES,
  PROSE_WORDS,
  QUOTE_CURRENCIES,
} from './symbolData';

export { FALSE_POSITIVE_WORDS, PROSE_WORDS } from './symbolData';

/** Every canonical symbol matches this; the background accepts nothing else. */
export const TICKER_PATTERN = /^\^?[A-Z0-9]{1,12}(?:[.-][A-Z0-9]{1,6})?(?:=[FX])?$/;

/** Index markers pages put in front of an index: `^GSPC`, `.SPX` (CNBC), `.INX` (Google). */
const INDEX = /^[\^.]([A-Z0-9]{1,10})$/;
const FUTURE = /^([A-Z0-9]{1,4})=F$/;
const CURRENCY = /^([A-Z]{3}|[A-Z]{6})=X$/;
const CRYPTO_PAIR = /^([A-Z0-9]{2,10})-([A-Z]{3,4})$/;
const SHARE_CLASS = /^([A-Z]{1,6})[.\-/]([A-Z])$/;
const LISTING = /^([A-Z0-9]{1,10})\.([A-Z]{1,2})$/;
const PLAIN = /^[A-Z][A-Z0-9]{0,5}$/;
const EXCHANGE_CODE = /^[A-Z]{2,12}$/;

const MAX_RAW_LENGTH = 40;

function canonicalBare(symbol: string): string | null {
  let match = INDEX.exec(symbol);
  if (match) return `^${match[1]}`;
  if (FUTURE.test(symbol) || CURRENCY.test(symbol)) return symbol;
  match = CRYPTO_PAIR.exec(symbol);
  if (match && QUOTE_CURRENCIES.has(match[2])) return symbol;
  match = LISTING.exec(symbol);
  if (match && LISTING_SUFFIXES.has(match[2])) return symbol;
  match = SHARE_CLASS.exec(symbol);
  if (match) return `${match[1]}.${match[2]}`;
  return PLAIN.test(symbol) ? symbol : null;
}

/** A symbol listed on `exchange`: `VOD` on `LON` → `VOD.L`; null when the code is unknown. */
function onExchange(symbol: string, exchange: string): string | null {
  const suffix = EXCHANGE_SUFFIX[exchange];
  if (suffix === undefined) return null;
  if (suffix === '') return canonicalBare(symbol);
  if (!/^[A-Z0-9]{1,10}$/.test(symbol)) return null;
  return `${symbol}.${suffix}`;
}

export function isKnownExchange(code: string): boolean {
  return EXCHANGE_SUFFIX[code.toUpperCase()] !== undefined;
}

/**
 * The canonical symbol for what a page wrote (`$brk-b`, `NASDAQ:AAPL`, `AAPL:NASDAQ`, `LON:VOD`,
 * `.SPX`, `GC=F`), or null when it is not a plausible ticker. Syntax only: whether a word such as
 * "CEO" is a ticker is decided by the caller, which knows how strong its source is.
 */
export function normalizeTicker(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  if (raw.length > MAX_RAW_LENGTH * 2) return null;
  // Invisible characters go; spaces only around an exchange colon (`NYSE: BRK.B`); any other space means prose.
  let text = raw
    .normalize('NFKC')
    .replace(/[\u00AD\u200B-\u200F\u2060\uFEFF]/g, '')
    .trim()
    .replace(/(?<!\s)\s*:\s*/, ':');
  if (text.length === 0 || text.length > MAX_RAW_LENGTH || /\s/.test(text)) return null;
  if (text.startsWith('$')) text = text.slice(1);
  text = text.toUpperCase();

  const colon = text.indexOf(':');
  if (colon !== -1) {
    if (text.indexOf(':', colon + 1) !== -1) return null;
    const left = text.slice(0, colon);
    const right = text.slice(colon + 1);
    if (EXCHANGE_CODE.test(left) && isKnownExchange(left)) return onExchange(right, left);
    if (EXCHANGE_CODE.test(right) && isKnownExchange(right)) return onExchange(left, right);
    return null;
  }
  const symbol = canonicalBare(text);
  return symbol !== null && TICKER_PATTERN.test(symbol) ? symbol : null;
}

/** True when `symbol` must be rejected from a weak source; `bare` when it was a lone capitalized word. */
export function isFalsePositive(symbol: string, bare = false): boolean {
  return FALSE_POSITIVE_WORDS.has(symbol) || (bare && PROSE_WORDS.has(symbol));
}
