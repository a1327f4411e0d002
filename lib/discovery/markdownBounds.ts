/**
 * The bounds on a Markdown document from the service, and the linear pass that applies them to its
 * source before marked's lexer sees it: line endings unified, container prefixes and tables cut to
 * size. lib/discovery/markdown.ts turns the bounded source into safe blocks.
 */

export interface MarkdownLimits {
  maxNodes: number;
  maxDepth: number;
  maxTextLength: number;
  maxInputLength: number;
  /**
   * marked's inline lexer is super-linear on crafted input (`[a](` repeated: 4 KB takes ~2 s).
   * Runs longer than this, and any run once the time budget is spent, are kept as plain text.
   */
  maxInlineLength: number;
  inlineBudgetMs: number;
  /** Longer lines are cut: nothing longer reaches marked. */
  maxLineLength: number;
  /**
   * Container markers (`>`, `-`, `1.`) at the start of a line beyond this are dropped, and leading
   * whitespace beyond `maxIndent` too: marked's block lexer recurses once per level (4,000 `>` overflow
   * the stack) and re-lexes each level's text (a staircase of `>` is quadratic: 200 KB took 8 s).
   */
  maxContainerDepth: number;
  maxIndent: number;
  /**
   * marked pads every table row to the header's width, so a 1,000-column header over 10,000
   * one-character rows makes ten million cells (23 KB took 13 s and 2.6 GB). Tables wider than
   * this stay text, and once the document's tables hold `maxTableCells` cells (or as many as the
   * document has characters) further rows and tables are not built.
   */
  maxTableColumns: number;
  maxTableCells: number;
}

export const DEFAULT_MARKDOWN_LIMITS: MarkdownLimits = {
  maxNodes: 5_000,
  maxDepth: 12,
  maxTextLength: 20_000,
  maxInputLength: 1_000_000,
  maxInlineLength: 1_500,
  inlineBudgetMs: 150,
  maxLineLength: 10_000,
  maxContainerDepth: 8,
  maxIndent: 48,
  maxTableColumns: 64,
  maxTableCells: 10_000,
};

function isBlank(code: number): boolean {
  return code === 32 || code === 9;
}

/**
 * One line with its container prefix bounded: at most `maxContainerDepth` markers (`>`, a bullet
 * and a space, or up to 9 digits, `.` or `)` and a space) and `maxIndent` blanks in that prefix.
 * A single forward scan, so the cost is linear in the line.
 */
function boundLine(
  line: string,
  limits: MarkdownLimits,
): { text: string; changed: boolean; prefixLength: number } {
  const text = line.length > limits.maxLineLength ? line.slice(0, limits.maxLineLength) : line;
  let changed = text.length < line.length;
  let kept = '';
  let markers = 0;
  let blanks = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (isBlank(code)) {
      if (blanks < limits.maxIndent) kept += text[i];
      else changed = true;
      blanks += 1;
      i += 1;
      continue;
    }
    let end = -1;
    if (code === 62 /* > */) end = i + 1;
    else if ((code === 45 || code === 42 || code === 43) /* - * + */ && isBlank(text.charCodeAt(i + 1)))
      end = i + 1;
    else {
      let j = i;
      while (j < text.length && j - i < 9 && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j += 1;
      const after = text.charCodeAt(j);
      if (j > i && (after === 46 || after === 41) /* . ) */ && isBlank(text.charCodeAt(j + 1))) end = j + 1;
    }
    if (end < 0) break;
    markers += 1;
    if (markers <= limits.maxContainerDepth) kept += text.slice(i, end);
    else changed = true;
    i = end;
  }
  return changed
    ? { text: kept + text.slice(i), changed, prefixLength: kept.length }
    : { text, changed, prefixLength: i };
}

/**
 * The number of columns when `content` (a line without its container prefix) may be a table's
 * delimiter row (`|---|:-:|`): only pipes, colons, dashes and blanks, with a dash and a pipe or
 * colon. A superset of what marked accepts, so no table it builds goes uncounted.
 */
function delimiterColumns(content: string): number {
  let pipes = 0;
  let dash = false;
  let colon = false;
  for (let i = 0; i < content.length; i += 1) {
    const code = content.charCodeAt(i);
    if (code === 124 /* | */) pipes += 1;
    else if (code === 45 /* - */) dash = true;
    else if (code === 58 /* : */) colon = true;
    else if (!isBlank(code)) return 0;
  }
  if (!dash || (pipes === 0 && !colon)) return 0;
  const trimmed = content.trim();
  // Leading and trailing pipes close the row; they open no column.
  return (
    pipes + 1 - (trimmed.startsWith('|') ? 1 : 0) - (trimmed.endsWith('|') && trimmed.length > 1 ? 1 : 0)
  );
}

/**
 * Keeps the cells marked will build linear in the source and bounded: counts each table's
 * header and rows (every row costs the header's width, padding included), turns a table that is
 * too wide, or that starts once the budget is spent, into text by escaping its delimiter row,
 * and ends a table whose rows outrun the budget with a blank line.
 */
function boundTables(lines: string[], prefixes: number[], limits: MarkdownLimits, size: number): boolean {
  let budget = Math.min(limits.maxTableCells, size);
  let columns = 0;
  let changed = false;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    const prefix = prefixes[index] ?? 0;
    const content = line.slice(prefix);
    if (content.trim() === '') {
      columns = 0;
      continue;
    }
    if (columns > 0) {
      if (budget >= columns) {
        budget -= columns;
        continue;
      }
      // The blank line ends the table; this row and the rest of its rows would be over budget.
      lines[index] = '';
      columns = 0;
      changed = true;
      continue;
    }
    const width = delimiterColumns(content);
    if (width === 0) continue;
    if (width > limits.maxTableColumns || budget < width * 2) {
      lines[index] = `${line.slice(0, prefix)}\\${content}`;
      changed = true;
      continue;
    }
    budget -= width;
    columns = width;
  }
  return changed;
}

/** The source as marked may see it: line endings unified, every line and table bounded (see MarkdownLimits). */
export function boundMarkdownSource(
  source: string,
  limits: MarkdownLimits,
): { text: string; changed: boolean } {
  let changed = false;
  const lines = source.split(/\r\n?|\n/);
  const prefixes: number[] = new Array<number>(lines.length);
  for (let index = 0; index < lines.length; index += 1) {
    const bounded = boundLine(lines[index] ?? '', limits);
    prefixes[index] = bounded.prefixLength;
    if (bounded.changed) {
      lines[index] = bounded.text;
      changed = true;
    }
  }
  if (boundTables(lines, prefixes, limits, source.length)) changed = true;
  return { text: lines.join('\n'), changed };
}
