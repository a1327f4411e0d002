/**
 * What a page is about: tickers from the site's URL, JSON-LD, meta tags, cashtags, the title and
 * the user's selection. Reads the DOM it is handed (never a global one) and bounds its work; the
 * address and text readings are lib/finance/textTickers.ts, which the worker bundles alone.
 */
import { normalizeTicker } from '@/lib/finance/symbols';
import { cleanText } from '@/lib/finance/text';
import {
  addSelectionTickers,
  addUrlTickers,
  DETECTION_LIMITS,
  mentions,
  TickerCollector,
  type DetectedTicker,
} from '@/lib/finance/textTickers';

export {
  normalizeTicker,
  TICKER_PATTERN,
  FALSE_POSITIVE_WORDS,
  isFalsePositive,
} from '@/lib/finance/symbols';

export { DETECTION_LIMITS } from '@/lib/finance/textTickers';
export type { DetectedTicker, TickerSource } from '@/lib/finance/textTickers';

export interface DetectTickersInput {
  url: string;
  document?: Document;
  selection?: string;
  /** The page's quote header lines (`NVIDIA Corporation (NVDA) NASDAQ · $1,184.20`): its own symbol. */
  quoteLines?: readonly string[];
  /** The article's text (lib/finance/article.ts): read for mentions instead of the whole page. */
  articleText?: string;
}

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

// `AAPL | Apple Inc. Stock Price`, `TSLA: Tesla Inc.`: a title that starts with the symbol.
const TITLE_LEAD = /^([A-Z^][A-Z0-9.=-]{0,11})\s*[|:–—-]\s/;

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
  addUrlTickers(collector, input.url);

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

  addSelectionTickers(collector, input.selection);

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
