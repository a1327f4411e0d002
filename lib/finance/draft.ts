/**
 * A draft playbook from what the reader is looking at: the page (content script, with its DOM) or
 * a right-click (background, with only what `contextMenus.onClicked` reports). Every field is
 * page-derived data: cleaned, bounded, never interpreted.
 */
import { browserMessage, type MessageSource } from '@/lib/i18n/browserMessage';
import type { PlaybookDraft } from '@/lib/finance/schema';
import { isByline, isPriceLine, isShareBar, type ArticleCapture } from '@/lib/finance/blocks';
import { detectTickers, leadingText, normalizeTicker, type DetectedTicker } from '@/lib/finance/tickers';
import { boundedText, citableUrl, cleanText, DRAFT_LIMITS } from '@/lib/finance/text';

export { DRAFT_LIMITS } from '@/lib/finance/text';
export type { PlaybookDraft } from '@/lib/finance/schema';

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

export interface BuildDraftFromContextInput {
  selectionText?: string;
  linkUrl?: string;
  linkText?: string;
  pageUrl: string;
  pageTitle?: string;
}

/** The page URL is not one a draft may cite (only http and https pages can be turned into playbooks). */
export class UncitableUrlError extends Error {
  override name = 'UncitableUrlError';
  constructor() {
    super('Only http and https pages can be turned into a playbook.');
  }
}

/** A paragraph shorter than this is a byline, caption or button label, not a lead. */
const MIN_LEAD_LENGTH = 60;
const MAX_PARAGRAPHS_SCANNED = 200;
/** Paragraphs after the lead that the thesis may carry, bound permitting. */
const KEY_PARAGRAPHS = 4;
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

function headlineOf(document: Document): string {
  const h1 = document.querySelector('article h1, main h1') ?? document.querySelector('h1');
  const heading = h1 ? cleanText(leadingText(h1, HEADING_CHARS)) : '';
  // A quote page's h1 may be the bare symbol (`AMD`): that says nothing the tickers do not.
  const useful = heading && !(heading.length <= 12 && normalizeTicker(heading) !== null);
  return useful ? heading : metaContent(document, 'og:title', 'twitter:title');
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

function hostOf(url: string): string {
  return new URL(url).hostname.replace(/^www\./, '');
}

/** "AAPL — Apple's services keep growing", unless the headline already names the symbol. */
function titleFor(tickers: readonly string[], headline: string, fallback: string): string {
  const base = headline || fallback;
  const lead = tickers[0];
  // `BRK.B` is also written `BRK-B` or `BRK/B`.
  const spelled = lead?.replace(/[\^=]/g, '\\$&').replace('.', '[.\\-/]');
  const named = spelled !== undefined && new RegExp(`(^|[^A-Z0-9])\\$?${spelled}([^A-Z0-9]|$)`).test(base);
  const title = lead && !named ? `${lead} — ${base}` : base;
  return boundedText(title, DRAFT_LIMITS.title);
}

interface DraftParts {
  sourceUrl: string;
  sourceTitle: string;
  headline: string;
  lead: string;
  /** Paragraphs after the lead, in reading order. */
  body?: readonly string[];
  selection: string;
  detected: DetectedTicker[];
}

/** Selection first, then headline, lead and whole key paragraphs while they fit the bound. */
function thesisOf(parts: DraftParts, fallback: string): string {
  const head = [parts.selection, parts.headline, parts.lead].filter(Boolean);
  if (head.length === 0) return fallback;
  let length = head.join('\n\n').length;
  for (const paragraph of (parts.body ?? []).slice(0, KEY_PARAGRAPHS)) {
    if (length + 2 + paragraph.length > DRAFT_LIMITS.thesis) break;
    head.push(paragraph);
    length += 2 + paragraph.length;
  }
  return head.join('\n\n');
}

/**
 * "Notes from example.com" in the UI language: the draft's title when the page names none. This
 * runs in the page's capture script, which carries no polyfill, so it asks the
 * browser's i18n directly; outside an extension (the drafting's unit tests) it says the English
 * source words.
 */
function notesFrom(host: string): string {
  const scope = globalThis as { browser?: { i18n?: MessageSource }; chrome?: { i18n?: MessageSource } };
  const words = browserMessage((scope.browser ?? scope.chrome)?.i18n, 'offer.notesFrom');
  return (words || 'Notes from {host}').replace('{host}', () => host);
}

function assemble(parts: DraftParts): PlaybookDraft {
  const tickers = symbolsOf(parts.detected);
  const host = hostOf(parts.sourceUrl);
  const fallbackTitle = parts.sourceTitle || notesFrom(host);
  const thesisText = thesisOf(parts, fallbackTitle);
  return {
    title: titleFor(tickers, parts.headline || parts.sourceTitle, notesFrom(host)),
    thesis: boundedText(thesisText, DRAFT_LIMITS.thesis, { multiline: true }),
    tickers,
    visibility: 'private',
    source: {
      url: parts.sourceUrl,
      title: boundedText(parts.sourceTitle, DRAFT_LIMITS.sourceTitle),
      excerpt: boundedText(parts.lead || parts.selection, DRAFT_LIMITS.excerpt),
    },
  };
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

function symbolsOf(detected: readonly DetectedTicker[]): string[] {
  return detected.map((ticker) => ticker.symbol).slice(0, DRAFT_LIMITS.tickers);
}

/**
 * The draft for the page the content script runs on. Thesis: the selection, else the headline
 * and lead. Throws `UncitableUrlError` when the page (or link) is not http(s).
 */
export function buildDraft(input: BuildDraftInput): PlaybookDraft {
  const selection = cleanText(input.selection, { multiline: true });
  if (input.link) {
    const linkUrl = citableUrl(input.link.url);
    if (!linkUrl) throw new UncitableUrlError();
    const linkText = cleanText(input.link.text);
    return assemble({
      sourceUrl: linkUrl,
      sourceTitle: linkText,
      headline: linkText,
      lead: '',
      selection,
      detected: detectTickers({ url: linkUrl, selection: [linkText, selection].filter(Boolean).join('\n') }),
    });
  }
  const pageUrl = citableUrl(input.url);
  if (!pageUrl) throw new UncitableUrlError();
  const document = input.document;
  const article = input.article;
  const headline = document ? headlineOf(document) || (article?.title ?? '') : '';
  // The article's title, not the site's `<title>` with its ` | Site` suffix.
  const sourceTitle = headline || article?.title || cleanText(input.title ?? document?.title);
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

/** The draft for a right-click menu item, built in the background from the click's info alone. */
export function buildDraftFromContext(input: BuildDraftFromContextInput): PlaybookDraft {
  const link = input.linkUrl ? { url: input.linkUrl, text: input.linkText } : undefined;
  return buildDraft({ url: input.pageUrl, title: input.pageTitle, selection: input.selectionText, link });
}
