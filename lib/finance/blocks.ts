/**
 * The shapes of page blocks that are not prose: quote lines, bylines, credits, share bars. Read in
 * linear time; shared by the light draft of the content script and the article extractor.
 */

export interface ArticleCapture {
  /** Readability's title: the article's, without the site's `| Site` suffix when it can tell. */
  title: string;
  /** Prose paragraphs in reading order; the first is the lead. */
  paragraphs: string[];
  /** Lines shaped like a quote header (`NVIDIA Corporation (NVDA) NASDAQ · $1,184.20 +3.10%`). */
  quoteLines: string[];
  /** The article's text, bounded, for ticker mentions. */
  text: string;
}

const BYLINE = /^(?:by|from|written by|reporting by|edited by)\s/i;
const DATELINE = /\b(?:updated|published|min read|minute read)\b/i;
const CREDIT = /^(?:photo|image|picture|video|credit|source|illustration)s?\s*(?:by\b|[:|])/i;
const SHARE_WORDS = new Set([
  'share',
  'tweet',
  'post',
  'email',
  'print',
  'copy',
  'link',
  'facebook',
  'twitter',
  'x',
  'linkedin',
  'reddit',
  'whatsapp',
  'save',
  'comments',
  'comment',
  'this',
  'article',
  'on',
  'gift',
]);
const SIGNED_PERCENT = /[+\-\u2212]\s?\d[\d,]*(?:\.\d+)?\s?%/;
const MONEY = /[$€£¥]\s?\d|\d\s?(?:USD|EUR|GBP|JPY)\b/;
const PROSE_WORD = /\b[a-z]{4,}\b/g;

/** A quote header or ticker strip: a signed change or a price, and next to no prose. */
export function isPriceLine(text: string): boolean {
  if (text.length > 200) return false;
  if (!SIGNED_PERCENT.test(text) && !MONEY.test(text)) return false;
  const proseWords = text.match(PROSE_WORD)?.length ?? 0;
  return proseWords < 5;
}

/** A byline, dateline or photo credit: short, and shaped like one. */
export function isByline(text: string, byline: string): boolean {
  if (text.length > 160) return false;
  if (byline && text.includes(byline)) return true;
  return BYLINE.test(text) || CREDIT.test(text) || (text.length < 100 && DATELINE.test(text));
}

/** "Share · Tweet · Email · Copy link": every word a share-bar word. */
export function isShareBar(text: string): boolean {
  if (text.length > 120) return false;
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return words.length > 0 && words.every((word) => SHARE_WORDS.has(word));
}
