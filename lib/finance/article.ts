/**
 * The article a page shows, read with @mozilla/readability (Firefox's Reader View engine) on a
 * clone of the document, then cut into prose paragraphs. Only text is read; the page's price
 * lines, bylines, captions, share bars and link lists are dropped by their shape, in linear time.
 */
import { Readability } from '@mozilla/readability';
import { isByline, isPriceLine, isShareBar, type ArticleCapture } from '@/lib/finance/blocks';
import { cleanText } from '@/lib/finance/text';

export type { ArticleCapture } from '@/lib/finance/blocks';

export const ARTICLE_LIMITS = {
  /** Readability gives up on larger documents rather than spend seconds on them. */
  elementsParsed: 30_000,
  paragraphs: 60,
  paragraphChars: 4_000,
  textChars: 50_000,
} as const;

/** A paragraph shorter than this is a label, a caption or a byline, not prose. */
export const MIN_PARAGRAPH_LENGTH = 60;

const BLOCKS = 'p, blockquote, li, h2, h3, h4, figcaption, div';
const SKIPPED_ANCESTORS = 'figure, figcaption, aside, nav, footer, header, form, table, [aria-hidden="true"]';
const RELATED_HEADING =
  /^(?:related|read more|more (?:from|on|about)|recommended|trending|most (?:read|popular)|you may also like|see also|further reading)\b/i;

/** Most of the block is link text: a list of other stories, not this one. */
function mostlyLinks(element: Element, length: number): boolean {
  let linked = 0;
  for (const anchor of element.querySelectorAll('a')) linked += cleanText(anchor.textContent).length;
  return length > 0 && linked / length > 0.5;
}

const INNER_BLOCKS =
  'p, div, blockquote, ul, ol, li, h1, h2, h3, h4, h5, h6, figure, table, section, article';

/** Only the innermost blocks hold their own text: a `div` around paragraphs is not one. */
function hasBlockChild(element: Element): boolean {
  return element.querySelector(INNER_BLOCKS) !== null;
}

interface Reading {
  paragraphs: string[];
  quoteLines: string[];
}

function readBlocks(root: Element, byline: string): Reading {
  const paragraphs: string[] = [];
  const quoteLines: string[] = [];
  let inRelatedList = false;
  for (const block of root.querySelectorAll(BLOCKS)) {
    if (paragraphs.length >= ARTICLE_LIMITS.paragraphs) break;
    if (hasBlockChild(block)) continue;
    const tag = block.tagName.toUpperCase();
    const text = cleanText(block.textContent?.slice(0, ARTICLE_LIMITS.paragraphChars * 2)).slice(
      0,
      ARTICLE_LIMITS.paragraphChars,
    );
    if (!text) continue;
    if (/^H[2-4]$/.test(tag)) {
      // A "Related" heading starts a run of other stories; any other heading ends it.
      inRelatedList = RELATED_HEADING.test(text);
      continue;
    }
    if (isPriceLine(text)) {
      if (quoteLines.length < 5) quoteLines.push(text);
      continue;
    }
    if (inRelatedList || tag === 'FIGCAPTION' || tag === 'LI' || block.closest(SKIPPED_ANCESTORS)) continue;
    if (text.length < MIN_PARAGRAPH_LENGTH) continue;
    if (isByline(text, byline) || isShareBar(text) || mostlyLinks(block, text.length)) continue;
    paragraphs.push(text);
  }
  return { paragraphs, quoteLines };
}

/**
 * The article of `document`, or undefined when Readability finds none (a bare quote table, say).
 * The document itself is never changed: Readability edits the clone it is given.
 */
export function extractArticle(document: Document): ArticleCapture | undefined {
  let parsed: ReturnType<Readability<Node>['parse']>;
  try {
    const clone = document.cloneNode(true) as Document;
    parsed = new Readability<Node>(clone, {
      maxElemsToParse: ARTICLE_LIMITS.elementsParsed,
      charThreshold: 200,
      serializer: (node) => node,
    }).parse();
  } catch {
    return undefined;
  }
  const content = parsed?.content;
  if (!parsed || !content || content.nodeType !== 1) return undefined;
  const { paragraphs, quoteLines } = readBlocks(content as Element, cleanText(parsed.byline));
  return {
    title: cleanText(parsed.title),
    paragraphs,
    quoteLines,
    text: cleanText((parsed.textContent ?? '').slice(0, ARTICLE_LIMITS.textChars * 2)).slice(
      0,
      ARTICLE_LIMITS.textChars,
    ),
  };
}
