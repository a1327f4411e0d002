/**
 * Markdown turned into a render-ready, JSON-serializable block tree that holds only text and
 * checked links. marked's lexer gives the tokens; its HTML renderer is never used, raw HTML is
 * dropped, and sizes (nodes, depth, text) are bounded so a hostile document cannot flood a page.
 */
import { Lexer, type MarkedToken, type Token, type Tokens } from 'marked';
import { t } from '@/lib/i18n';
import { boundMarkdownSource, DEFAULT_MARKDOWN_LIMITS, type MarkdownLimits } from './markdownBounds';
import { resolveLinkHref } from './urls';

export { boundMarkdownSource, DEFAULT_MARKDOWN_LIMITS, type MarkdownLimits };

export type SafeInline =
  | { type: 'text'; text: string }
  | { type: 'strong'; children: SafeInline[] }
  | { type: 'em'; children: SafeInline[] }
  | { type: 'del'; children: SafeInline[] }
  | { type: 'code'; text: string }
  | { type: 'link'; href: string; children: SafeInline[] }
  | { type: 'br' };

export type TableAlign = 'left' | 'center' | 'right' | null;

export interface SafeListItem {
  checked: boolean | null;
  children: SafeBlock[];
}

export type SafeBlock =
  | { type: 'heading'; depth: number; children: SafeInline[] }
  | { type: 'paragraph'; children: SafeInline[] }
  | { type: 'list'; ordered: boolean; start: number | null; items: SafeListItem[] }
  | { type: 'code'; lang: string; text: string }
  | { type: 'blockquote'; children: SafeBlock[] }
  | { type: 'table'; align: TableAlign[]; header: SafeInline[][]; rows: SafeInline[][][] }
  | { type: 'hr' };

/** The paragraph that ends a document cut to its bounds, in the UI language. */
export function truncationNotice(): string {
  return t('sidepanel.markdown.shortened');
}

// Text inside these elements is script or styling, never prose worth showing.
const HIDDEN_ELEMENTS = /^<\s*(script|style|iframe|object|embed|template|noscript|svg|math)\b/i;

interface Walk {
  limits: MarkdownLimits;
  documentUrl: string;
  nodes: number;
  truncated: boolean;
}

/** The Markdown document as safe blocks; links resolve against `documentUrl`. */
export function markdownToSafeBlocks(
  markdown: string,
  documentUrl: string,
  limits: MarkdownLimits = DEFAULT_MARKDOWN_LIMITS,
): SafeBlock[] {
  const walk: Walk = { limits, documentUrl, nodes: 0, truncated: false };
  const source =
    markdown.length > limits.maxInputLength ? markdown.slice(0, limits.maxInputLength) : markdown;
  if (source.length < markdown.length) walk.truncated = true;
  const bounded = boundMarkdownSource(source, limits);
  if (bounded.changed) walk.truncated = true;
  const tokens = lexBounded(bounded.text, limits);
  const blocks = convertBlocks(tokens, walk, 0);
  if (walk.truncated)
    blocks.push({ type: 'paragraph', children: [{ type: 'text', text: truncationNotice() }] });
  return blocks;
}

const LEXER_OPTIONS = { gfm: true, breaks: false, pedantic: false, async: false } as const;

/**
 * marked's own `lexer()`, with the inline pass bounded: block tokens first (linear), then each
 * paragraph, heading, cell and list text is inline-lexed only while it is short and time is left.
 */
function lexBounded(source: string, limits: MarkdownLimits): Token[] {
  // Explicit options so another module's marked.use() cannot change what the lexer emits here.
  const lexer = new Lexer({ ...LEXER_OPTIONS });
  const tokens = lexer.blockTokens(source, []);
  const deadline = performance.now() + limits.inlineBudgetMs;
  const inline = (text: string): Token[] =>
    text.length <= limits.maxInlineLength && performance.now() < deadline
      ? lexer.inlineTokens(text, [])
      : [{ type: 'text', raw: text, text }];
  const fill = (list: Token[]): void => {
    for (const token of list) {
      if (token.type === 'table') {
        const table = token as Tokens.Table;
        for (const cell of [...table.header, ...table.rows.flat()]) cell.tokens = inline(cell.text);
      } else if (token.type === 'list') {
        for (const item of (token as Tokens.List).items) fill(item.tokens);
      } else if (token.type === 'blockquote') {
        fill((token as Tokens.Blockquote).tokens);
      } else if (
        (token.type === 'paragraph' || token.type === 'heading' || token.type === 'text') &&
        'tokens' in token
      ) {
        const withText = token as Tokens.Paragraph | Tokens.Heading | Tokens.Text;
        if (withText.tokens && withText.tokens.length === 0) withText.tokens = inline(withText.text);
      }
    }
  };
  fill(tokens);
  return tokens;
}

function take(walk: Walk): boolean {
  if (walk.nodes >= walk.limits.maxNodes) {
    walk.truncated = true;
    return false;
  }
  walk.nodes += 1;
  return true;
}

function clipText(text: string, walk: Walk): string {
  if (text.length <= walk.limits.maxTextLength) return text;
  walk.truncated = true;
  return `${text.slice(0, walk.limits.maxTextLength)}…`;
}

function convertBlocks(tokens: readonly Token[], walk: Walk, depth: number): SafeBlock[] {
  if (depth > walk.limits.maxDepth) {
    walk.truncated = true;
    return [];
  }
  const blocks: SafeBlock[] = [];
  for (const token of tokens) {
    const block = convertBlock(token as MarkedToken, walk, depth);
    if (block) blocks.push(block);
    if (walk.nodes >= walk.limits.maxNodes) {
      walk.truncated = true;
      break;
    }
  }
  return blocks;
}

function convertBlock(token: MarkedToken, walk: Walk, depth: number): SafeBlock | null {
  switch (token.type) {
    case 'heading':
      if (!take(walk)) return null;
      return {
        type: 'heading',
        depth: Math.min(Math.max(token.depth, 1), 6),
        children: convertInlines(token.tokens, walk, depth + 1),
      };
    case 'paragraph':
      if (!take(walk)) return null;
      return paragraphOrNull(convertInlines(token.tokens, walk, depth + 1));
    case 'text':
      // Block-level text appears inside tight list items.
      if (!take(walk)) return null;
      return paragraphOrNull(
        token.tokens ? convertInlines(token.tokens, walk, depth + 1) : [textNode(token.text, walk)],
      );
    case 'list':
      return convertList(token, walk, depth);
    case 'code':
      if (!take(walk)) return null;
      return { type: 'code', lang: clipLang(token.lang), text: clipText(token.text, walk) };
    case 'blockquote':
      if (!take(walk)) return null;
      return { type: 'blockquote', children: convertBlocks(token.tokens, walk, depth + 1) };
    case 'table':
      return convertTable(token, walk, depth);
    case 'hr':
      if (!take(walk)) return null;
      return { type: 'hr' };
    default:
      // html, def, space and anything an extension might add are dropped on purpose.
      return null;
  }
}

function paragraphOrNull(children: SafeInline[]): SafeBlock | null {
  return children.length > 0 ? { type: 'paragraph', children } : null;
}

function clipLang(lang: string | undefined): string {
  const word = (lang ?? '').trim().split(/\s+/)[0] ?? '';
  return /^[\w.+#-]{1,32}$/.test(word) ? word : '';
}

function convertList(token: Tokens.List, walk: Walk, depth: number): SafeBlock | null {
  if (!take(walk)) return null;
  const items: SafeListItem[] = [];
  for (const item of token.items) {
    if (!take(walk)) break;
    items.push({
      checked: item.task ? Boolean(item.checked) : null,
      children: convertBlocks(item.tokens, walk, depth + 1),
    });
  }
  const start =
    token.ordered && typeof token.start === 'number' && Number.isSafeInteger(token.start)
      ? token.start
      : null;
  return { type: 'list', ordered: token.ordered, start, items };
}

function convertTable(token: Tokens.Table, walk: Walk, depth: number): SafeBlock | null {
  if (!take(walk)) return null;
  const cell = (c: Tokens.TableCell): SafeInline[] =>
    take(walk) ? convertInlines(c.tokens, walk, depth + 1) : [];
  const header = token.header.map(cell);
  const rows: SafeInline[][][] = [];
  for (const row of token.rows) {
    if (walk.nodes >= walk.limits.maxNodes) {
      walk.truncated = true;
      break;
    }
    rows.push(row.map(cell));
  }
  return { type: 'table', align: token.align.map((a) => a ?? null), header, rows };
}

function textNode(text: string, walk: Walk): SafeInline {
  return { type: 'text', text: clipText(decodeEntities(text), walk) };
}

function convertInlines(tokens: readonly Token[] | undefined, walk: Walk, depth: number): SafeInline[] {
  if (!tokens) return [];
  if (depth > walk.limits.maxDepth) {
    walk.truncated = true;
    return [];
  }
  const out: SafeInline[] = [];
  let hiddenElement: string | null = null;
  for (const raw of tokens) {
    const token = raw as MarkedToken;
    if (token.type === 'html') {
      const opening = HIDDEN_ELEMENTS.exec(token.text);
      if (opening) hiddenElement = opening[1].toLowerCase();
      else if (hiddenElement && new RegExp(`^<\\s*/\\s*${hiddenElement}\\b`, 'i').test(token.text))
        hiddenElement = null;
      continue;
    }
    if (hiddenElement) continue;
    if (token.type === 'text' && token.tokens && token.tokens.length > 0) {
      // A text token with children (inside some containers) is spliced in place.
      for (const child of convertInlines(token.tokens, walk, depth + 1)) pushMerged(out, child);
      continue;
    }
    const inline = convertInline(token, walk, depth);
    if (inline) pushMerged(out, inline);
    if (walk.nodes >= walk.limits.maxNodes) {
      walk.truncated = true;
      break;
    }
  }
  return out;
}

// Adjacent text runs are merged so the tree stays small and easy to assert on.
function pushMerged(out: SafeInline[], inline: SafeInline): void {
  const last = out[out.length - 1];
  if (last?.type === 'text' && inline.type === 'text') last.text += inline.text;
  else out.push(inline);
}

function convertInline(token: MarkedToken, walk: Walk, depth: number): SafeInline | null {
  switch (token.type) {
    case 'text':
      if (!take(walk)) return null;
      return textNode(token.text, walk);
    case 'escape':
      if (!take(walk)) return null;
      return { type: 'text', text: token.text };
    case 'strong':
    case 'em':
    case 'del':
      if (!take(walk)) return null;
      return { type: token.type, children: convertInlines(token.tokens, walk, depth + 1) };
    case 'codespan':
      if (!take(walk)) return null;
      return { type: 'code', text: clipText(token.text, walk) };
    case 'br':
      if (!take(walk)) return null;
      return { type: 'br' };
    case 'link': {
      if (!take(walk)) return null;
      const children = convertInlines(token.tokens, walk, depth + 1);
      // CommonMark decodes entities in link destinations, so `javascript&#58;` must be judged decoded.
      const href = resolveLinkHref(decodeEntities(token.href), walk.documentUrl);
      // An unsafe target keeps its words but loses the link.
      if (!href) return children.length > 0 ? flattenToText(children) : null;
      return { type: 'link', href, children };
    }
    case 'image':
      // Images are not loaded (no third-party requests from a document); the alt text stands in.
      if (!take(walk)) return null;
      return token.text ? textNode(token.text, walk) : null;
    default:
      return null;
  }
}

function flattenToText(children: readonly SafeInline[]): SafeInline {
  return { type: 'text', text: inlineText(children) };
}

/** The plain text of inline nodes (for table cells read as data, alt text, unsafe links). */
export function inlineText(children: readonly SafeInline[]): string {
  let text = '';
  for (const child of children) {
    if (child.type === 'text' || child.type === 'code') text += child.text;
    else if (child.type === 'br') text += ' ';
    else text += inlineText(child.children);
  }
  return text;
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
        return '\ufffd';
      return String.fromCodePoint(code);
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}
