/**
 * A draft playbook of the page the content script runs on, read from its DOM (and its article,
 * when one was read). The right-click's draft, from the click's info alone, is contextDraft.ts:
 * the worker bundles that, never these readers. Every field is page-derived data: cleaned,
 * bounded, never interpreted.
 */
import type { PlaybookDraft } from '@/lib/finance/schema';
import { isByline, isPriceLine, isShareBar, type ArticleCapture } from '@/lib/finance/blocks';
import { detectTickers, leadingText, normalizeTicker } from '@/lib/finance/tickers';
import { assemble, linkDraft, symbolsOf, UncitableUrlError } from '@/lib/finance/contextDraft';
import { citableUrl, cleanText, DRAFT_LIMITS, withoutSiteSuffix } from '@/lib/finance/text';

export { DRAFT_LIMITS } from '@/lib/finance/text';
export type { PlaybookDraft } from '@/lib/finance/schema';
export { buildDraftFromContext, UncitableUrlError } from '@/lib/finance/contextDraft';
export type { BuildDraftFromContextInput } from '@/lib/finance/contextDraft';

export interface BuildDraftInput {
  url: string;
  title?: string;
  document?: Document;
  selection?: string;
  /** Set when the user asked about a link: the draft is then about the link's target. */
  link?: { url: string; text?: string };
  /** The page's article (lib/finance/article.ts), when it was read; else a cheap scan of the DOM. */
  article?: ArticleCapture;
}

/** A paragraph shorter than this is a byline, caption or button label, not a lead. */
const MIN_LEAD_LENGTH = 60;
const MAX_PARAGRAPHS_SCANNED = 200;
/** Leaf elements near the top of the page read for a quote header. */
const QUOTE_HEADER_SCANNED = 300;
/** Nodes read of each: a quote line is a small element, and 300 reads of a page would not be. */
const QUOTE_HEADER_NODES = 1_000;
/** A headline longer than this is not one; the draft's title is bounded further. */
const HEADING_CHARS = 1_000;

function metaContent(document: Document, ...names: string[]): string {
  for (const name of names) {
    const meta = document.querySelector(`meta[property="${name}"], meta[name="${name}"]`);
    const content = cleanText(meta?.getAttribute('content'));
    if (content) return content;
  }
  return '';
}

/** `Apple Inc. (AAPL)`, `NVIDIA Corporation (NASDAQ: NVDA)`, `AMD`: a quote page's name, not a story's headline. */
const QUOTE_HEADING = /\((?:[A-Z]{2,10}:\s?)?\$?([A-Z0-9][A-Z0-9.\-^=]{0,11})\)$/;

function isBareSymbol(heading: string): boolean {
  return heading.length <= 12 && normalizeTicker(heading) !== null;
}

function isQuoteHeading(heading: string): boolean {
  const symbol = QUOTE_HEADING.exec(heading)?.[1];
  return isBareSymbol(heading) || (symbol !== undefined && normalizeTicker(symbol) !== null);
}

/** A story's headline, not a section's name (`Key statistics`, `Recent news`): long enough, in words. */
function isStoryHeading(heading: string): boolean {
  return heading.length >= 25 && heading.split(/\s+/).length >= 4 && !isQuoteHeading(heading);
}

/**
 * The story's headline: the page's h1; on a quote page (an h1 that is the company's name or bare
 * symbol), the news story's own heading in the article or main area where there is one, else the
 * name; a bare symbol says nothing the tickers do not, so then the page's og:title.
 */
function headlineOf(document: Document): string {
  const h1 = document.querySelector('article h1, main h1') ?? document.querySelector('h1');
  const heading = h1 ? cleanText(leadingText(h1, HEADING_CHARS)) : '';
  if (heading && !isQuoteHeading(heading)) return heading;
  const story = document.querySelector('article h2, main h2');
  const storyHeading = story ? cleanText(leadingText(story, HEADING_CHARS)) : '';
  if (isStoryHeading(storyHeading)) return storyHeading;
  if (heading && !isBareSymbol(heading)) return heading;
  return metaContent(document, 'og:title', 'twitter:title');
}

function leadOf(document: Document): string {
  const paragraphs = [
    ...document.querySelectorAll('article p, main p'),
    ...document.querySelectorAll('p'),
  ].slice(0, MAX_PARAGRAPHS_SCANNED * 2);
  for (const paragraph of paragraphs) {
    if (paragraph.closest('nav, header, footer, aside, form, [aria-hidden="true"]')) continue;
    const text = cleanText(leadingText(paragraph, DRAFT_LIMITS.thesis));
    if (text.length < MIN_LEAD_LENGTH) continue;
    if (isPriceLine(text) || isByline(text, '') || isShareBar(text)) continue;
    return text;
  }
  return metaContent(document, 'description', 'og:description', 'twitter:description');
}

/**
 * The quote header of a page (`NVIDIA Corporation (NVDA) NASDAQ · $1,184.20 +35.61 (+3.10%)`):
 * short leaf blocks of the article or main area shaped like a price line, in reading order.
 */
function quoteHeaderLines(document: Document): string[] {
  const root = document.querySelector('article, main') ?? document.body;
  if (!root) return [];
  const lines: string[] = [];
  const heading = document.querySelector('h1');
  const h1 = heading ? cleanText(leadingText(heading, 100)) : '';
  if (h1.length <= 12 && normalizeTicker(h1) !== null) lines.push(h1);
  const elements = [...root.querySelectorAll('p, div, span, li, h2, h3')].slice(0, QUOTE_HEADER_SCANNED);
  for (const element of elements) {
    if (element.childElementCount > 8 || lines.length >= 5) continue;
    // The first characters only: `textContent` would build a wrapper's whole text first.
    const text = cleanText(leadingText(element, 400, { maxNodes: QUOTE_HEADER_NODES }));
    if (text && isPriceLine(text) && !lines.some((line) => line.includes(text))) lines.push(text);
  }
  return lines;
}

/**
 * The tickers the page itself names (its address, markup, quote header and text), as a draft of
 * it would list them but with no selection: what "On this page" and the offer's count are about.
 */
export function pageTickers(url: string, document: Document): string[] {
  const pageUrl = citableUrl(url);
  if (!pageUrl) return [];
  return symbolsOf(detectTickers({ url: pageUrl, document, quoteLines: quoteHeaderLines(document) }));
}

/**
 * The draft for the page the content script runs on. Thesis: the selection, else the headline
 * and lead. Throws `UncitableUrlError` when the page (or link) is not http(s).
 */
export function buildDraft(input: BuildDraftInput): PlaybookDraft {
  const selection = cleanText(input.selection, { multiline: true });
  if (input.link) return linkDraft(input.link, selection);
  const pageUrl = citableUrl(input.url);
  if (!pageUrl) throw new UncitableUrlError();
  const document = input.document;
  const article = input.article;
  const headline = document ? headlineOf(document) || (article?.title ?? '') : '';
  // The article's title, not the site's `<title>` with its ` | Site` suffix.
  const sourceTitle =
    headline || article?.title || withoutSiteSuffix(cleanText(input.title ?? document?.title));
  const [articleLead, ...body] = article?.paragraphs ?? [];
  return assemble({
    sourceUrl: pageUrl,
    sourceTitle,
    headline,
    lead: articleLead ?? (document ? leadOf(document) : ''),
    body,
    selection,
    detected: detectTickers({
      url: pageUrl,
      document,
      selection,
      quoteLines: document ? [...(article?.quoteLines ?? []), ...quoteHeaderLines(document)] : [],
      articleText: article?.text,
    }),
  });
}
