/**
 * What a page is about: tickers from the site's URL, JSON-LD, meta tags, cashtags, the title and
 * the user's selection. Reads the DOM it is handed (never a global one) and bounds its work.
 */
import { isFalsePositive, normalizeTicker } from '@/lib/finance/symbols';
import { siteForUrl } from '@/lib/finance/sites';
import { cleanText, DRAFT_LIMITS } from '@/lib/finance/text';

export {
  normalizeTicker,
  TICKER_PATTERN,
  FALSE_POSITIVE_WORDS,
  isFalsePositive,
} from '@/lib/finance/symbols';

export type TickerSource = 'url' | 'json-ld' | 'quote' | 'meta' | 'cashtag' | 'selection' | 'title';

export interface DetectedTicker {
  symbol: string;
  source: TickerSource;
  /** 0–1: how sure the source makes us that the page is about this symbol. */
  confidence: number;
}

export interface DetectTickersInput {
  url: string;
  document?: Document;
  selection?: string;
  /** The page's quote header lines (`NVIDIA Corporation (NVDA) NASDAQ · $1,184.20`): its own symbol. */
  quoteLines?: readonly string[];
  /** The article's text (lib/finance/article.ts): read for mentions instead of the whole page. */
  articleText?: string;
}

/** Strong sources name a ticker on purpose; weak ones may be prose, so false positives are dropped. */
const CONFIDENCE: Readonly<Record<TickerSource, number>> = {
  url: 0.95,
  'json-ld': 0.9,
  quote: 0.85,
  meta: 0.8,
  selection: 0.75,
  cashtag: 0.6,
  title: 0.55,
};
/** A lone capitalized word in the selection is a weaker hint than a cashtag or `NYSE: X`. */
const BARE_WORD_PENALTY = 0.25;

export const DETECTION_LIMITS = {
  tickers: DRAFT_LIMITS.tickers,
  /** Characters of body text scanned for cashtags. */
  bodyText: 50_000,
  selectionText: 20_000,
  /** Candidate tokens examined per text, so thousands of `$` cost a bounded amount. */
  tokensPerText: 2_000,
  jsonLdScripts: 20,
  jsonLdChars: 200_000,
  jsonLdNodes: 5_000,
  metaTags: 500,
} as const;

// Code, form fields and the page's chrome (menus, sidebars of related or trending tickers) say
// nothing about what this page is about.
const SKIPPED_ELEMENTS = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'SVG',
  'TEXTAREA',
  'INPUT',
  'SELECT',
  'NAV',
  'ASIDE',
  'HEADER',
  'FOOTER',
]);
// NodeFilter's constants, spelt out so this module also loads in a service worker.
const SHOW_ELEMENT = 0x1;
const SHOW_TEXT = 0x4;
const SHOW_CDATA_SECTION = 0x8;
const FILTER_ACCEPT = 1;
const FILTER_REJECT = 2;
/** Nodes (elements and text) a read visits at most: a page of millions of nodes costs a bounded amount. */
const MAX_NODES_VISITED = 100_000;

interface LeadingTextOptions {
  /** Tag names whose whole subtree is left out. */
  skipped?: ReadonlySet<string>;
  /** Between text nodes: none, as `textContent` does, or a space for words split across elements. */
  joiner?: string;
  maxNodes?: number;
}

/**
 * Text of `root` in document order, up to `max` characters and `maxNodes` nodes visited, leaving
 * out the subtrees of `skipped` elements whole (one check per element, not one per text node and
 * ancestor). Unlike `textContent`, never builds more text than it returns.
 */
export function leadingText(
  root: Node,
  max: number,
  { skipped, joiner = '', maxNodes = MAX_NODES_VISITED }: LeadingTextOptions = {},
): string {
  const document = root.ownerDocument ?? (root as Document);
  const walker = document.createTreeWalker(root, SHOW_ELEMENT | SHOW_TEXT | SHOW_CDATA_SECTION, {
    acceptNode: (node) =>
      node.nodeType === 1 && skipped?.has((node as Element).tagName.toUpperCase())
        ? FILTER_REJECT
        : FILTER_ACCEPT,
  });
  const parts: string[] = [];
  let length = 0;
  let visited = 0;
  for (let node = walker.nextNode(); node && length < max && visited < maxNodes; node = walker.nextNode()) {
    visited++;
    if (node.nodeType === 1) continue;
    const text = node.nodeValue ?? '';
    if (text.length === 0) continue;
    parts.push(text);
    length += text.length + joiner.length;
  }
  return parts.join(joiner).slice(0, max);
}

/** Visible text of the body, in document order, up to `max` characters. */
export function visibleText(document: Document, max: number): string {
  const root = document.body ?? document.documentElement;
  return root ? leadingText(root, max, { skipped: SKIPPED_ELEMENTS, joiner: ' ' }) : '';
}

// `$AAPL`, `$brk.b`, `$BTC-USD`, `$GC=F`: letters first, so `$100` and `$5B` are money, not tickers.
const CASHTAG = /(?<![\w$])\$([A-Z^][A-Z0-9]{0,9}(?:[.-][A-Z]{1,4})?(?:=[FX])?)(?![\w$])/gi;
// `NASDAQ: AAPL`, `(NYSE:BRK.B)`, `LON:VOD`, `AAPL:NASDAQ`.
const QUALIFIED =
  /(?<![\w$])([A-Z]{2,12}:\s?[A-Z0-9^.][A-Z0-9.-]{0,11}|[A-Z0-9^.][A-Z0-9.-]{0,11}:[A-Z]{2,12})(?![\w$])/g;
// `Apple Inc. (AAPL)`, `(BRK.B)`.
const PARENTHESIZED = /\(([A-Z^][A-Z0-9.=-]{1,11})\)/g;
// A lone capitalized word, for the selection only.
// Not next to a colon: `TYO:7203` is an exchange and a symbol, read by QUALIFIED.
const BARE_WORD = /(?<![\w$^.:])([A-Z]{2,5}(?:\.[A-Z])?)(?![\w$]|\s?:)/g;
// `AAPL | Apple Inc. Stock Price`, `TSLA: Tesla Inc.`: a title that starts with the symbol.
const TITLE_LEAD = /^([A-Z^][A-Z0-9.=-]{0,11})\s*[|:–—-]\s/;

interface Candidate {
  raw: string;
  /** Where in the text it was found, so ties keep reading order. */
  index: number;
  length: number;
  /** A lone capitalized word, not marked by `$`, parentheses or an exchange: everyday words are dropped too. */
  bare: boolean;
}

function* scan(text: string, pattern: RegExp, kind: Pick<Candidate, 'bare'>): Generator<Candidate> {
  let examined = 0;
  for (const match of text.matchAll(pattern)) {
    if (++examined > DETECTION_LIMITS.tokensPerText) return;
    // A sentence may end right after the symbol: `… NYSE: BRK.B.`
    const index = match.index + match[0].indexOf(match[1]);
    yield { raw: match[1].replace(/(?<![.-])[.-]+$/, ''), index, length: match[1].length, ...kind };
  }
}

function* mentions(
  text: string,
  options: { bareWords: boolean; parenthesized: boolean },
): Generator<Candidate> {
  yield* scan(text, QUALIFIED, { bare: false });
  yield* scan(text, CASHTAG, { bare: false });
  if (options.parenthesized) yield* scan(text, PARENTHESIZED, { bare: false });
  if (options.bareWords) yield* scan(text, BARE_WORD, { bare: true });
}

/** Cashtags are prose too, but a mixed-case one (`$Money`) is a word, not a ticker. */
function plausibleCashtag(raw: string): boolean {
  const letters = raw.replace(/[^A-Z]/gi, '');
  return letters === letters.toUpperCase() || letters === letters.toLowerCase();
}

class TickerCollector {
  private readonly found = new Map<string, DetectedTicker>();

  get full(): boolean {
    return this.found.size >= DETECTION_LIMITS.tickers;
  }

  add(
    raw: string,
    source: TickerSource,
    options: { weak: boolean; bare?: boolean; confidence?: number },
  ): void {
    if (this.full) return;
    const symbol = normalizeTicker(raw);
    if (!symbol || this.found.has(symbol)) return;
    if (options.weak && isFalsePositive(symbol, options.bare ?? false)) return;
    this.found.set(symbol, { symbol, source, confidence: options.confidence ?? CONFIDENCE[source] });
  }

  /** Adds mentions found in text, most frequent first (a page's subject repeats). */
  addMentions(candidates: Iterable<Candidate>, source: TickerSource): void {
    const counts = new Map<string, { count: number; candidate: Candidate }>();
    // Text already read as a marked mention: `(AAPL)` must not count again as the bare word AAPL.
    const marked = new Set<number>();
    for (const candidate of candidates) {
      if (candidate.bare && marked.has(candidate.index)) continue;
      if (!candidate.bare) for (let i = 0; i < candidate.length; i++) marked.add(candidate.index + i);
      // Counted by canonical symbol: `$BRK.B` and `NYSE: BRK-B` are one mention each of BRK.B.
      const key = plausibleCashtag(candidate.raw) ? normalizeTicker(candidate.raw) : null;
      if (key === null) continue;
      const entry = counts.get(key);
      if (!entry) counts.set(key, { count: 1, candidate });
      else {
        entry.count += 1;
        // Marked once (`$X`, `NYSE: X`) means marked: the word is no longer only bare.
        entry.candidate = { ...entry.candidate, bare: entry.candidate.bare && candidate.bare };
      }
    }
    const ranked = [...counts.values()].sort(
      (a, b) =>
        Number(a.candidate.bare) - Number(b.candidate.bare) ||
        b.count - a.count ||
        a.candidate.index - b.candidate.index,
    );
    for (const { candidate } of ranked) {
      const confidence = CONFIDENCE[source] - (candidate.bare ? BARE_WORD_PENALTY : 0);
      this.add(candidate.raw, source, { weak: true, bare: candidate.bare, confidence });
    }
  }

  result(): DetectedTicker[] {
    return [...this.found.values()];
  }
}

function tickersFromUrl(rawUrl: string): string[] {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return [];
  }
  const site = siteForUrl(url);
  if (site) return site.tickersFromUrl(url);
  // Sites the user added: only an explicit query parameter is trusted.
  const param = url.searchParams.get('symbol') ?? url.searchParams.get('ticker');
  return param ? [param] : [];
}

function collectTickerSymbols(value: unknown, out: string[], budget: { nodes: number }, depth = 0): void {
  if (depth > 12 || --budget.nodes < 0 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) collectTickerSymbols(item, out, budget, depth + 1);
    return;
  }
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'tickerSymbol') {
      for (const symbol of Array.isArray(item) ? item : [item]) {
        if (typeof symbol === 'string') out.push(symbol);
      }
    } else {
      collectTickerSymbols(item, out, budget, depth + 1);
    }
  }
}

/** More than any symbol's spelling (`NASDAQ: BRK.B`): an element that says one needs no more. */
const SYMBOL_CHARS = 40;

function jsonLdTickers(document: Document): string[] {
  const out: string[] = [];
  const budget = { nodes: DETECTION_LIMITS.jsonLdNodes };
  const scripts = [...document.querySelectorAll('script[type="application/ld+json" i]')];
  for (const script of scripts.slice(0, DETECTION_LIMITS.jsonLdScripts)) {
    const text = script.textContent ?? '';
    if (text.length > DETECTION_LIMITS.jsonLdChars) continue;
    try {
      collectTickerSymbols(JSON.parse(text), out, budget);
    } catch {
      // Malformed JSON-LD is common in the wild and simply says nothing.
    }
  }
  return out;
}

const TICKER_META_NAMES = new Set([
  'ticker',
  'tickers',
  'symbol',
  'stock-symbol',
  'stock_symbol',
  'tickersymbol',
]);
const TITLE_META_NAMES = new Set(['og:title', 'twitter:title']);

interface MetaReading {
  explicit: string[];
  titles: string[];
}

/** Meta tags: named ticker tags, microdata `tickerSymbol`, Twitter label/data pairs, iXBRL trading symbol. */
function metaTickers(document: Document): MetaReading {
  const explicit: string[] = [];
  const titles: string[] = [];
  const labels = new Map<string, string>();
  const metas = [...document.querySelectorAll('meta')].slice(0, DETECTION_LIMITS.metaTags);
  for (const meta of metas) {
    const name = (meta.getAttribute('name') ?? meta.getAttribute('property') ?? '').toLowerCase();
    const content = meta.getAttribute('content') ?? '';
    if (TICKER_META_NAMES.has(name))
      explicit.push(...content.split(/[,;\s]+/).slice(0, DETECTION_LIMITS.tickers));
    else if (meta.getAttribute('itemprop') === 'tickerSymbol') explicit.push(content);
    else if (TITLE_META_NAMES.has(name)) titles.push(content);
    else if (/^twitter:(label|data)\d$/.test(name)) labels.set(name, content);
  }
  for (const [name, label] of labels) {
    if (name.startsWith('twitter:label') && /^(ticker|symbol)$/i.test(label.trim())) {
      explicit.push(labels.get(name.replace('label', 'data')) ?? '');
    }
  }
  for (const element of [...document.querySelectorAll('[itemprop="tickerSymbol"]:not(meta)')].slice(0, 20)) {
    explicit.push(leadingText(element, SYMBOL_CHARS));
  }
  // Inline XBRL filings (EDGAR) tag the registrant's trading symbol.
  for (const element of [...document.querySelectorAll('[name="dei:TradingSymbol"]')].slice(0, 20)) {
    explicit.push(element.getAttribute('content') ?? leadingText(element, SYMBOL_CHARS));
  }
  return { explicit, titles };
}

function titleTickers(collector: TickerCollector, title: string): void {
  const lead = TITLE_LEAD.exec(title);
  if (lead) collector.add(lead[1], 'title', { weak: true });
  collector.addMentions(mentions(title, { bareWords: false, parenthesized: true }), 'title');
}

/**
 * Tickers the page is about, unique, at most `DETECTION_LIMITS.tickers`, in source order: url,
 * json-ld, quote header, meta, selection, cashtag (tagged mentions in the text), title. Within a source, marked
 * mentions come before bare words, then the most frequent, then reading order. A symbol found by
 * several sources keeps the first.
 */
export function detectTickers(input: DetectTickersInput): DetectedTicker[] {
  const collector = new TickerCollector();
  for (const raw of tickersFromUrl(input.url)) collector.add(raw, 'url', { weak: false });

  const document = input.document;
  if (document) {
    for (const raw of jsonLdTickers(document)) collector.add(raw, 'json-ld', { weak: false });
    for (const line of (input.quoteLines ?? []).slice(0, 6)) {
      // A quote page's header may be the bare symbol (`MSFT`).
      if (line.length <= 12 && normalizeTicker(line) !== null) collector.add(line, 'quote', { weak: true });
      else
        collector.addMentions(
          mentions(line.slice(0, 300), { bareWords: false, parenthesized: true }),
          'quote',
        );
    }
    const meta = metaTickers(document);
    for (const raw of meta.explicit) collector.add(raw, 'meta', { weak: true });
    for (const title of meta.titles)
      collector.addMentions(mentions(title.slice(0, 500), { bareWords: false, parenthesized: true }), 'meta');
  }

  // Cleaned first, so a zero-width character cannot split `$AA\u200BPL` into two words.
  const selection = cleanText((input.selection ?? '').slice(0, DETECTION_LIMITS.selectionText));
  if (selection.trim()) {
    // Shouting text makes every word a capitalized word: then only explicit mentions count.
    const letters = selection.replace(/[^A-Z]/gi, '');
    const mostlyUpper = letters.length > 20 && letters.replace(/[^A-Z]/g, '').length / letters.length > 0.6;
    collector.addMentions(mentions(selection, { bareWords: !mostlyUpper, parenthesized: true }), 'selection');
  }

  if (document && !collector.full) {
    const body =
      input.articleText !== undefined
        ? cleanText(input.articleText.slice(0, DETECTION_LIMITS.bodyText))
        : cleanText(visibleText(document, DETECTION_LIMITS.bodyText));
    // Tagged mentions in the text: `$AAPL`, and news style `Nvidia (NASDAQ: NVDA)`.
    collector.addMentions(mentions(body, { bareWords: false, parenthesized: false }), 'cashtag');
    const h1 = document.querySelector('h1');
    titleTickers(collector, (document.title ?? '').slice(0, 500));
    titleTickers(collector, h1 ? leadingText(h1, 500) : '');
  }
  return collector.result();
}
