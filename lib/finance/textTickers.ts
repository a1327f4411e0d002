/**
 * Tickers from an address and from text (a selection, a link's words): no DOM. The right-click
 * draft in the background reads only these (lib/finance/contextDraft.ts); tickers.ts adds what a
 * page's DOM says, in source order around them.
 */
import { isFalsePositive, normalizeTicker } from '@/lib/finance/symbols';
import { siteForUrl } from '@/lib/finance/sites';
import { cleanText, DRAFT_LIMITS } from '@/lib/finance/text';

export type TickerSource = 'url' | 'json-ld' | 'quote' | 'meta' | 'cashtag' | 'selection' | 'title';

export interface DetectedTicker {
  symbol: string;
  source: TickerSource;
  /** 0–1: how sure the source makes us that the page is about this symbol. */
  confidence: number;
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

export function* mentions(
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

export class TickerCollector {
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

/** The tickers the address names: a known site's own URL shape, else an explicit `symbol` parameter. */
export function addUrlTickers(collector: TickerCollector, url: string): void {
  for (const raw of tickersFromUrl(url)) collector.add(raw, 'url', { weak: false });
}

/** The tickers the user's selection mentions. */
export function addSelectionTickers(collector: TickerCollector, text: string | undefined): void {
  // Cleaned first, so a zero-width character cannot split `$AA\u200BPL` into two words.
  const selection = cleanText((text ?? '').slice(0, DETECTION_LIMITS.selectionText));
  if (selection.trim()) {
    // Shouting text makes every word a capitalized word: then only explicit mentions count.
    const letters = selection.replace(/[^A-Z]/gi, '');
    const mostlyUpper = letters.length > 20 && letters.replace(/[^A-Z]/g, '').length / letters.length > 0.6;
    collector.addMentions(mentions(selection, { bareWords: !mostlyUpper, parenthesized: true }), 'selection');
  }
}

/** Tickers from an address and a selection alone, as `detectTickers` finds them with no document. */
export function detectTextTickers(input: { url: string; selection?: string }): DetectedTicker[] {
  const collector = new TickerCollector();
  addUrlTickers(collector, input.url);
  addSelectionTickers(collector, input.selection);
  return collector.result();
}
