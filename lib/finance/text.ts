/**
 * Cleaning of text taken from a page. Page text is untrusted data: it is never interpreted, only
 * stripped of invisible and control characters, whitespace-normalized and length-bounded.
 */

/** The bounds of a draft; the content script truncates to them, the background rejects beyond them. */
export const DRAFT_LIMITS = {
  title: 120,
  thesis: 4000,
  excerpt: 500,
  tickers: 10,
  sourceTitle: 200,
  url: 2048,
} as const;

// C0 and C1 controls (tab, newlines handled as whitespace first), zero-width and bidi controls,
// soft hyphen, BOM and the invisible tag block: none carries meaning a reader can see.
const INVISIBLE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\v\u000E-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]|\uDB40[\uDC00-\uDC7F]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// Vertical tab and form feed are line breaks here.
const LINE_BREAKS = /\r\n?|[\v\f\u0085\u2028\u2029]/g;
const HORIZONTAL_SPACE = /[^\S\n]+/g;

/** Reads at most this many characters of any one input, so a megabyte selection costs nothing. */
const MAX_INPUT_SCAN = 100_000;

export interface CleanTextOptions {
  /** Keep paragraph breaks (at most one blank line); otherwise everything becomes one line. */
  multiline?: boolean;
}

/** Strips invisible and control characters and normalizes whitespace; never truncates. */
export function cleanText(raw: unknown, options: CleanTextOptions = {}): string {
  if (typeof raw !== 'string') return '';
  let text = raw.length > MAX_INPUT_SCAN ? raw.slice(0, MAX_INPUT_SCAN) : raw;
  text = text.replace(LINE_BREAKS, '\n').replace(INVISIBLE, '').replace(LONE_SURROGATE, '\uFFFD');
  text = text.normalize('NFC');
  if (!options.multiline) return text.replace(/\s+/g, ' ').trim();
  return text
    .replace(HORIZONTAL_SPACE, ' ')
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Cuts text to at most `max` UTF-16 units, ending with "…" when cut: at a word boundary when one
 * is close, and never inside a surrogate pair.
 */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return max === 1 ? '…' : '';
  let cut = max - 1;
  if (/[\uD800-\uDBFF]/.test(text.charAt(cut - 1))) cut -= 1;
  const head = text.slice(0, cut);
  const lastSpace = head.search(/\s\S*$/);
  const atWord = lastSpace >= cut * 0.8 ? head.slice(0, lastSpace) : head;
  return `${atWord.trimEnd()}…`;
}

/** cleanText then truncateText: the one call for any page-derived field. */
export function boundedText(raw: unknown, max: number, options: CleanTextOptions = {}): string {
  return truncateText(cleanText(raw, options), max);
}

/**
 * The URL a draft may cite: http(s) only, no credentials, no fragment (a text fragment would
 * repeat the selection). Returns null for anything else.
 */
export function citableUrl(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length > DRAFT_LIMITS.url * 2) return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  url.username = '';
  url.password = '';
  url.hash = '';
  const href = url.href;
  return href.length <= DRAFT_LIMITS.url ? href : null;
}

/** What stands between a page's title and its site's name (a title's text is whitespace-collapsed). */
const SITE_SEPARATORS = [' | ', ' · ', ' • ', ' - ', ' – ', ' — '];

/**
 * A page's own title without the site's name (`Apple rallies | Example News` → `Apple rallies`):
 * the text before the last ` | `, ` · ` or ` • ` (almost always a site's name), or before the last
 * dash when what follows looks like a name (at most four capitalised words: `Yahoo Finance`, not
 * `what it means for AI`). Only when what stays is long enough to be a title. Linear: a
 * last-occurrence search per separator.
 */
export function withoutSiteSuffix(title: string): string {
  let at = -1;
  let separator = '';
  for (const candidate of SITE_SEPARATORS) {
    const found = title.lastIndexOf(candidate);
    if (found > at) [at, separator] = [found, candidate];
  }
  if (at < 10) return title;
  const rest = title.slice(0, at).trimEnd();
  const site = title.slice(at + separator.length).trim();
  if (site.length === 0 || site.length > 40 || /[|·•]/.test(site)) return title;
  if (/[|·•]/.test(separator)) return rest;
  const words = site.split(/\s+/);
  return words.length <= 4 && words.every((name) => /^[\p{Lu}\p{N}]/u.test(name)) ? rest : title;
}
