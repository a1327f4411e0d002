/**
 * Ticker symbols: one canonical spelling for the many a page may use.
 *
 * Canonical form (Yahoo-like, upper case): US share class with a dot (`BRK.B`); a non-US listing
 * with its exchange suffix (`VOD.L`, `7203.T`); an index with a caret (`^GSPC`); a future `GC=F`;
 * a currency pair `EURUSD=X`; a crypto pair `BTC-USD`. US exchanges add no suffix.
 */

/** Every canonical symbol matches this; the background accepts nothing else. */
export const TICKER_PATTERN = /^\^?[A-Z0-9]{1,12}(?:[.-][A-Z0-9]{1,6})?(?:=[FX])?$/;

/** Yahoo-style exchange suffixes, so `VOD.L` is a London listing and not share class L. */
const LISTING_SUFFIXES = new Set([
  'L',
  'T',
  'V',
  'F',
  'TO',
  'CN',
  'NE',
  'HK',
  'AX',
  'NZ',
  'DE',
  'PA',
  'AS',
  'BR',
  'MI',
  'MC',
  'LS',
  'SW',
  'ST',
  'OL',
  'CO',
  'HE',
  'IR',
  'VI',
  'WA',
  'IS',
  'TA',
  'NS',
  'BO',
  'KS',
  'KQ',
  'SS',
  'SZ',
  'TW',
  'SI',
  'JK',
  'BK',
  'KL',
  'SA',
  'MX',
  'JO',
  'SR',
  'QA',
]);

// Exchange codes as pages write them (Google, TradingView, Bloomberg, cashtag prefixes) → the
// listing suffix; '' for US venues, which take none.
const EXCHANGE_SUFFIX: Readonly<Record<string, string>> = {
  NASDAQ: '',
  NASDAQGS: '',
  NASDAQGM: '',
  NASDAQCM: '',
  NMS: '',
  NYSE: '',
  NYSEARCA: '',
  NYSEAMERICAN: '',
  NYSEMKT: '',
  AMEX: '',
  ARCA: '',
  BATS: '',
  CBOE: '',
  OTC: '',
  OTCMKTS: '',
  PINK: '',
  US: '',
  UN: '',
  UW: '',
  UQ: '',
  LON: 'L',
  LSE: 'L',
  LN: 'L',
  TYO: 'T',
  TSE: 'T',
  JP: 'T',
  JT: 'T',
  TSX: 'TO',
  CVE: 'V',
  TSXV: 'V',
  CT: 'TO',
  HKG: 'HK',
  HKEX: 'HK',
  HK: 'HK',
  ETR: 'DE',
  XETR: 'DE',
  XETRA: 'DE',
  GR: 'DE',
  FRA: 'F',
  EPA: 'PA',
  EURONEXT: 'PA',
  FP: 'PA',
  AMS: 'AS',
  NA: 'AS',
  EBR: 'BR',
  BIT: 'MI',
  IM: 'MI',
  BME: 'MC',
  SM: 'MC',
  SWX: 'SW',
  SIX: 'SW',
  VTX: 'SW',
  SW: 'SW',
  STO: 'ST',
  OSL: 'OL',
  CPH: 'CO',
  HEL: 'HE',
  ASX: 'AX',
  AU: 'AX',
  NZE: 'NZ',
  NSE: 'NS',
  BOM: 'BO',
  KRX: 'KS',
  KOSDAQ: 'KQ',
  SHA: 'SS',
  SHE: 'SZ',
  TPE: 'TW',
  SGX: 'SI',
  BMV: 'MX',
  BVMF: 'SA',
  JSE: 'JO',
};

/** Quote currencies that make `BTC-USD` a pair rather than share class or listing. */
const QUOTE_CURRENCIES = new Set([
  'USD',
  'USDT',
  'USDC',
  'EUR',
  'GBP',
  'JPY',
  'CAD',
  'AUD',
  'CHF',
  'BTC',
  'ETH',
]);

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

/**
 * Words that look like tickers but almost never mean one: roles, finance and macro jargon,
 * currencies, venues, regulators, time zones, periods. Rejected from every weak source (meta,
 * cashtag, selection, title); only the site's URL or JSON-LD may name them.
 */
export const FALSE_POSITIVE_WORDS: ReadonlySet<string> = new Set([
  'CEO',
  'CFO',
  'COO',
  'CTO',
  'CIO',
  'CMO',
  'VP',
  'SVP',
  'EVP',
  'IR',
  'PR',
  'HR',
  'ETF',
  'ETFS',
  'ETN',
  'IPO',
  'SPAC',
  'REIT',
  'ADR',
  'ESG',
  'LBO',
  'OTC',
  'ATH',
  'ATL',
  'DCF',
  'EPS',
  'PE',
  'ROE',
  'ROI',
  'ROA',
  'EBIT',
  'EBITDA',
  'FCF',
  'NAV',
  'AUM',
  'YTD',
  'QTD',
  'MTD',
  'YOY',
  'QOQ',
  'MOM',
  'TTM',
  'LTM',
  'FY',
  'H1',
  'H2',
  'Q1',
  'Q2',
  'Q3',
  'Q4',
  'EOD',
  'DD',
  'TLDR',
  'IMO',
  'FYI',
  'GDP',
  'CPI',
  'PPI',
  'PCE',
  'PMI',
  'FOMC',
  'FED',
  'ECB',
  'BOJ',
  'BOE',
  'IMF',
  'OPEC',
  'QE',
  'QT',
  'USD',
  'EUR',
  'GBP',
  'JPY',
  'CNY',
  'CHF',
  'CAD',
  'AUD',
  'NZD',
  'HKD',
  'INR',
  'KRW',
  'US',
  'USA',
  'UK',
  'EU',
  'NYSE',
  'NASDAQ',
  'AMEX',
  'LSE',
  'TSX',
  'SEC',
  'FINRA',
  'FDIC',
  'FTC',
  'DOJ',
  'IRS',
  'FDA',
  'EPA',
  'OTCMKTS',
  'EST',
  'EDT',
  'CST',
  'CDT',
  'MST',
  'MDT',
  'PST',
  'PDT',
  'UTC',
  'GMT',
  'BST',
  'CET',
  'CEST',
  'JST',
  'AI',
  'API',
  'LLM',
  'GPU',
  'CPU',
  'EV',
  'A',
  'I',
  'GAAP',
  'CAGR',
  'ARR',
  'SAAS',
  'CAPEX',
  'OPEX',
]);

/**
 * Everyday capitals that are real tickers (ON, NOW, ALL, IT…) but far more often plain words:
 * rejected only when a bare capitalized word is all there is (selection or title text).
 */
export const PROSE_WORDS: ReadonlySet<string> = new Set([
  'AM',
  'PM',
  'TV',
  'PC',
  'IT',
  'OK',
  'ON',
  'NEW',
  'ALL',
  'AND',
  'THE',
  'FOR',
  'ARE',
  'ANY',
  'NOW',
  'ONE',
  'TWO',
  'BIG',
  'CAN',
  'SO',
  'OR',
  'NOT',
  'YOU',
  'OUT',
  'SEE',
  'AT',
  'BY',
  'IN',
  'OF',
  'TO',
  'UP',
  'IS',
  'BE',
  'IF',
  'AS',
  'DO',
  'GO',
  'NO',
  'WE',
  'MY',
  'BUY',
  'SELL',
  'HOLD',
  'LONG',
  'SHORT',
  'CALL',
  'PUT',
  'PDF',
  'RSS',
  'FAQ',
  'LLC',
  'INC',
  'LTD',
  'PLC',
  'CORP',
  'CO',
  'NEWS',
  'LIVE',
  'RT',
  'TM',
  'WHO',
  'UN',
  'NATO',
  'USB',
  'MD',
  'P',
  'E',
  'IV',
  'IMHO',
  'STOCK',
  'PRICE',
  'QUOTE',
  'DATA',
  'HIGH',
  'LOW',
  'OPEN',
  'CLOSE',
  'TOP',
  'BEST',
  'FREE',
  'LOGIN',
  'HOME',
  'MORE',
  'READ',
  'FULL',
  'WSJ',
  'CNBC',
  'CNN',
  'BBC',
]);

/** True when `symbol` must be rejected from a weak source; `bare` when it was a lone capitalized word. */
export function isFalsePositive(symbol: string, bare = false): boolean {
  return FALSE_POSITIVE_WORDS.has(symbol) || (bare && PROSE_WORDS.has(symbol));
}
