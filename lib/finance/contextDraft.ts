/**
 * A draft playbook from text alone: an address, a title, a selection, a link. The right-click
 * (background, with only what `contextMenus.onClicked` reports) drafts with this module and
 * nothing else of lib/finance's drafting; the page's draft (draft.ts) assembles its DOM readings
 * here too. No DOM here, so the worker bundles none of the page readers.
 */
import { browserMessage, type MessageSource } from '@/lib/i18n/browserMessage';
import type { PlaybookDraft } from '@/lib/finance/schema';
import { detectTextTickers, type DetectedTicker } from '@/lib/finance/textTickers';
import { boundedText, citableUrl, cleanText, DRAFT_LIMITS, withoutSiteSuffix } from '@/lib/finance/text';

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

/** Paragraphs after the lead that the thesis may carry, bound permitting. */
const KEY_PARAGRAPHS = 4;

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

export interface DraftParts {
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

export function assemble(parts: DraftParts): PlaybookDraft {
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

export function symbolsOf(detected: readonly DetectedTicker[]): string[] {
  return detected.map((ticker) => ticker.symbol).slice(0, DRAFT_LIMITS.tickers);
}

/** The draft about a link's target: its words and the selection name the tickers. */
export function linkDraft(link: { url: string; text?: string }, selection: string): PlaybookDraft {
  const linkUrl = citableUrl(link.url);
  if (!linkUrl) throw new UncitableUrlError();
  const linkText = cleanText(link.text);
  return assemble({
    sourceUrl: linkUrl,
    sourceTitle: linkText,
    headline: linkText,
    lead: '',
    selection,
    detected: detectTextTickers({
      url: linkUrl,
      selection: [linkText, selection].filter(Boolean).join('\n'),
    }),
  });
}

/**
 * The draft for a right-click menu item, built in the background from the click's info alone:
 * what `buildDraft` makes of the same address, title, selection and link with no document.
 */
export function buildDraftFromContext(input: BuildDraftFromContextInput): PlaybookDraft {
  const selection = cleanText(input.selectionText, { multiline: true });
  if (input.linkUrl) return linkDraft({ url: input.linkUrl, text: input.linkText }, selection);
  const pageUrl = citableUrl(input.pageUrl);
  if (!pageUrl) throw new UncitableUrlError();
  return assemble({
    sourceUrl: pageUrl,
    sourceTitle: withoutSiteSuffix(cleanText(input.pageTitle)),
    headline: '',
    lead: '',
    body: [],
    selection,
    detected: detectTextTickers({ url: pageUrl, selection }),
  });
}
