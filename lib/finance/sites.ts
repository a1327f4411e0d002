/**
 * The default finance sites as data: where the content script runs, and how each site spells the
 * ticker a page is about in its URL. Rules return raw spellings; `normalizeTicker` canonicalizes.
 */
import { isKnownExchange, normalizeTicker } from './symbols';
import type { SiteProblem } from '@/lib/contract/sites';

export interface FinanceSite {
  id: string;
  name: string;
  /** MV3 match patterns, usable as a content script's `matches`. */
  matches: readonly string[];
  /** Canonical tickers the URL names, most specific first; empty when the URL names none. */
  tickersFromUrl: (url: URL) => string[];
}

function segments(url: URL): string[] {
  return url.pathname
    .split('/')
    .filter((part) => part.length > 0)
    .map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    });
}

/** The path segment right after `marker` (`/quote/AAPL` → `AAPL`). */
function after(url: URL, marker: string): string | undefined {
  const parts = segments(url);
  const index = parts.indexOf(marker);
  return index === -1 ? undefined : parts[index + 1];
}

function canonical(...raws: (string | undefined | null)[]): string[] {
  const out: string[] = [];
  for (const raw of raws) {
    const symbol = raw ? normalizeTicker(raw) : null;
    if (symbol && !out.includes(symbol)) out.push(symbol);
  }
  return out;
}

/** `NASDAQ-AAPL` / `XETR-SAP`: an exchange prefix that is dropped when it is not one we map. */
function exchangeDashSymbol(raw: string | undefined): string[] {
  if (!raw) return [];
  const match = /^([A-Z]{2,12})-(.+)$/i.exec(raw);
  if (!match) return canonical(raw);
  const [, exchange, symbol] = match as unknown as [string, string, string];
  return isKnownExchange(exchange) ? canonical(`${exchange}:${symbol}`) : canonical(symbol);
}

// Reuters instrument codes: venue after the dot, share class as a lower-case letter (BRKb.N).
const REUTERS_US_VENUES = new Set(['O', 'OQ', 'N', 'A', 'K', 'P', 'PK']);
function reutersCode(raw: string | undefined): string[] {
  const match = raw ? /^([A-Z0-9]{1,10})([a-z])?(?:\.([A-Z]{1,2}))?$/.exec(raw) : null;
  if (!match) return [];
  const [, base, shareClass, venue] = match as unknown as [string, string, string?, string?];
  const symbol = shareClass ? `${base}.${shareClass.toUpperCase()}` : base;
  if (!venue || REUTERS_US_VENUES.has(venue)) return canonical(symbol);
  return canonical(`${symbol}.${venue}`);
}

// Bloomberg `<symbol>:<market>`; IND marks an index, CUR a currency pair.
function bloombergCode(raw: string | undefined): string[] {
  const match = raw ? /^([A-Z0-9./]{1,12}):([A-Z]{2,3})$/i.exec(raw) : null;
  if (!match) return [];
  const [, symbol, market] = match as unknown as [string, string, string];
  const upper = market.toUpperCase();
  if (upper === 'IND') return canonical(`^${symbol}`);
  if (upper === 'CUR') return canonical(`${symbol}=X`);
  return canonical(`${symbol}:${upper}`);
}

// MarketWatch country codes → listing suffix (the symbol alone is the US listing).
const MARKETWATCH_COUNTRY: Readonly<Record<string, string>> = {
  uk: 'L',
  jp: 'T',
  ca: 'TO',
  de: 'DE',
  fr: 'PA',
  hk: 'HK',
  au: 'AX',
  nl: 'AS',
  ch: 'SW',
  it: 'MI',
  es: 'MC',
};

export const FINANCE_SITES: readonly FinanceSite[] = [
  {
    id: 'yahoo-finance',
    name: 'Yahoo Finance',
    matches: ['*://finance.yahoo.com/quote/*'],
    tickersFromUrl: (url) => canonical(after(url, 'quote')),
  },
  {
    id: 'google-finance',
    name: 'Google Finance',
    matches: ['*://www.google.com/finance/*'],
    tickersFromUrl: (url) => {
      const raw = after(url, 'quote');
      // `EUR-USD` is Google's spelling of a currency pair.
      const pair = raw ? /^([A-Z]{3})-([A-Z]{3})$/.exec(raw) : null;
      if (pair && !['BTC', 'ETH'].includes(pair[1])) return canonical(`${pair[1]}${pair[2]}=X`);
      // Indices sit on pseudo-exchanges: `.INX:INDEXSP`, `.DJI:INDEXDJX`.
      const index = raw ? /^\.?([A-Z0-9]{1,10}):INDEX[A-Z]*$/.exec(raw) : null;
      if (index) return canonical(`^${index[1]}`);
      return canonical(raw);
    },
  },
  {
    id: 'marketwatch',
    name: 'MarketWatch',
    matches: ['*://www.marketwatch.com/investing/*'],
    tickersFromUrl: (url) => {
      const [, kind, raw] = segments(url);
      if (!kind || !raw) return [];
      if (kind === 'index') return canonical(`^${raw}`);
      if (!['stock', 'fund', 'etf'].includes(kind)) return [];
      const suffix = MARKETWATCH_COUNTRY[url.searchParams.get('countrycode')?.toLowerCase() ?? ''];
      return canonical(suffix ? `${raw}.${suffix}` : raw);
    },
  },
  {
    id: 'seeking-alpha',
    name: 'Seeking Alpha',
    matches: ['*://seekingalpha.com/symbol/*', '*://seekingalpha.com/article/*'],
    tickersFromUrl: (url) => canonical(after(url, 'symbol')),
  },
  {
    id: 'investing-com',
    name: 'Investing.com',
    // The URL carries a company slug, not a ticker: the page's own markup names it.
    matches: ['*://www.investing.com/equities/*'],
    tickersFromUrl: () => [],
  },
  {
    id: 'finviz',
    name: 'Finviz',
    matches: ['*://finviz.com/quote.ashx*'],
    tickersFromUrl: (url) => canonical(url.searchParams.get('t')),
  },
  {
    id: 'tradingview',
    name: 'TradingView',
    matches: ['*://www.tradingview.com/symbols/*'],
    tickersFromUrl: (url) => exchangeDashSymbol(after(url, 'symbols')),
  },
  {
    id: 'nasdaq',
    name: 'Nasdaq',
    matches: ['*://www.nasdaq.com/market-activity/*'],
    tickersFromUrl: (url) => {
      const [, kind, raw] = segments(url);
      if (!kind || !raw) return [];
      if (kind === 'index') return canonical(`^${raw}`);
      return ['stocks', 'etf', 'funds-and-etfs'].includes(kind) ? canonical(raw) : [];
    },
  },
  {
    id: 'sec-edgar',
    name: 'SEC EDGAR',
    matches: ['*://www.sec.gov/Archives/edgar/data/*', '*://www.sec.gov/cgi-bin/browse-edgar*'],
    tickersFromUrl: (url) => {
      // browse-edgar accepts a ticker in place of a CIK; a numeric CIK names no ticker.
      const cik = url.searchParams.get('CIK') ?? url.searchParams.get('cik');
      if (cik && /^[A-Z][A-Z.-]{0,6}$/i.test(cik)) return canonical(cik);
      // Inline XBRL filings are named `<ticker>-<period end>.htm`.
      const file = segments(url).at(-1) ?? '';
      const match = /^([a-z]{1,5})-\d{8}(?:x[a-z0-9]+)?\.html?$/i.exec(file);
      return match ? canonical(match[1]) : [];
    },
  },
  {
    id: 'cnbc',
    name: 'CNBC',
    matches: ['*://www.cnbc.com/quotes/*'],
    tickersFromUrl: (url) => canonical(after(url, 'quotes')),
  },
  {
    id: 'bloomberg',
    name: 'Bloomberg',
    matches: ['*://www.bloomberg.com/markets/*', '*://www.bloomberg.com/quote/*'],
    tickersFromUrl: (url) => bloombergCode(after(url, 'quote')),
  },
  {
    id: 'reuters',
    name: 'Reuters',
    matches: ['*://www.reuters.com/markets/*'],
    tickersFromUrl: (url) => {
      const [, kind, raw] = segments(url);
      return kind === 'companies' || kind === 'quote' ? reutersCode(raw) : [];
    },
  },
];

/** Every default match pattern, for the content script's `matches`. */
export const DEFAULT_SITE_MATCHES: string[] = FINANCE_SITES.flatMap((site) => [...site.matches]);

interface ParsedMatchPattern {
  schemes: readonly string[];
  host: string;
  subdomains: boolean;
  path: RegExp;
}

const MATCH_PATTERN = /^(\*|https?):\/\/(\*|(?:\*\.)?[^/*:]+)(\/.*)$/;

function parseMatchPattern(pattern: string): ParsedMatchPattern | null {
  const match = MATCH_PATTERN.exec(pattern);
  if (!match) return null;
  const [, scheme, host, path] = match as unknown as [string, string, string, string];
  const glob = path.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return {
    schemes: scheme === '*' ? ['http:', 'https:'] : [`${scheme}:`],
    host: host.startsWith('*.') ? host.slice(2) : host,
    subdomains: host.startsWith('*.'),
    path: new RegExp(`^${glob.join('.*')}$`),
  };
}

/** Whether `url` falls under an http(s) match pattern (path compared with path and query, as Chrome does). */
export function urlMatchesPattern(url: string | URL, pattern: string): boolean {
  const parsed = parseMatchPattern(pattern);
  let target: URL;
  try {
    target = typeof url === 'string' ? new URL(url) : url;
  } catch {
    return false;
  }
  if (!parsed || !parsed.schemes.includes(target.protocol)) return false;
  const hostMatches =
    parsed.host === '*' ||
    target.hostname === parsed.host ||
    (parsed.subdomains && target.hostname.endsWith(`.${parsed.host}`));
  return hostMatches && parsed.path.test(`${target.pathname}${target.search}`);
}

/** The default site whose patterns cover `url`, if any. */
export function siteForUrl(url: string | URL): FinanceSite | undefined {
  return FINANCE_SITES.find((site) => site.matches.some((pattern) => urlMatchesPattern(url, pattern)));
}

export type SitePatternResult =
  | { ok: true; pattern: string; host: string }
  /** `input` is the part of the address the problem is about (at most 60 characters), when it helps. */
  | { ok: false; problem: SiteProblem; input?: string };

const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Turns what a user typed as an extra finance site (`example.com`, `https://www.example.com/x`,
 * `*.example.com`) into a host-wide match pattern (`https://example.com/*`). Paths and ports are
 * dropped: a grant is per host. Anything that would cover more than one site is refused.
 */
export function parseSitePattern(input: unknown): SitePatternResult {
  if (typeof input !== 'string') return { ok: false, problem: 'empty' };
  const text = input.trim();
  if (text.length === 0) return { ok: false, problem: 'empty' };
  if (text.length > 253 + 20 || /\s/.test(text)) {
    return { ok: false, problem: 'too-long' };
  }
  const schemeMatch = /^(\*|[a-z][a-z0-9+.-]*):\/\//i.exec(text);
  const scheme = schemeMatch ? schemeMatch[1].toLowerCase() : 'https';
  // `javascript:…`, `file:/…`, `mailto:…` have a scheme but no `//`; `example.com:8080` has a port.
  const bareScheme = !schemeMatch && /^[a-z][a-z0-9+.-]*:(?!\d+(?:[/?#]|$))/i.test(text);
  if (bareScheme || !['http', 'https', '*'].includes(scheme)) {
    return { ok: false, problem: 'scheme' };
  }
  const rest = schemeMatch ? text.slice(schemeMatch[0].length) : text;
  let hostPart = rest.split(/[/?#]/, 1)[0] ?? '';
  if (hostPart.includes('@')) return { ok: false, problem: 'credentials' };
  const wildcard = hostPart.startsWith('*.');
  if (wildcard) hostPart = hostPart.slice(2);
  if (hostPart === '*' || hostPart.includes('*')) {
    return { ok: false, problem: 'every-site' };
  }
  let host: string;
  try {
    host = new URL(`https://${hostPart}/`).hostname;
  } catch {
    return { ok: false, problem: 'bad-host', input: hostPart.slice(0, 60) };
  }
  const isIp = /^\d{1,3}(?:\.\d{1,3}){3}$/.test(host) || host.startsWith('[');
  const labels = host.split('.');
  if (!isIp && (host.length > 253 || !labels.every((label) => HOST_LABEL.test(label)))) {
    return { ok: false, problem: 'bad-host', input: hostPart.slice(0, 60) };
  }
  if (wildcard && (isIp || labels.length < 2)) {
    return { ok: false, problem: 'bad-wildcard' };
  }
  if (!isIp && labels.length < 2 && host !== 'localhost') {
    return { ok: false, problem: 'not-full-domain' };
  }
  const patternHost = wildcard ? `*.${host}` : host;
  return { ok: true, pattern: `${scheme}://${patternHost}/*`, host: patternHost };
}
