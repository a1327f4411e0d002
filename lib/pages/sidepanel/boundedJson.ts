/**
 * JSON from the MCP server printed for the side panel within a budget. JSON.stringify(value, null,
 * 2) indents each line by its depth, so a value nested d deep costs about d² characters (2 KB of
 * `[[[…]]]` printed as 2 MB) and one deeper than the stack throws. This printer walks with its own
 * stack, stops growing the indent at MAX_INDENT_DEPTH and stops writing at the budget: its output
 * is linear in its input and never longer than the budget.
 */

/** What one tool result may show in all, in characters, and in blocks. */
export const MAX_RESULT_CHARS = 200_000;
export const MAX_RESULT_BLOCKS = 100;
/** What one tool's inputSchema may show. */
export const MAX_SCHEMA_CHARS = 20_000;
/** Tools drawn with their forms; a longer list is a hostile one. */
export const MAX_LISTED_TOOLS = 100;
/** Deeper lines keep this indent. */
const MAX_INDENT_DEPTH = 16;

export interface PrintedJson {
  text: string;
  /** The budget ran out: `text` ends with "…". */
  cut: boolean;
}

const skipped = (value: unknown) =>
  value === undefined || typeof value === 'function' || typeof value === 'symbol';

function scalar(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return 'null';
}

/** JSON.stringify(value, null, 2), but linear in the input and at most `budget` characters (plus "…"). */
export function prettyJson(value: unknown, budget: number): PrintedJson {
  const parts: string[] = [];
  let length = 0;
  const indent = (depth: number) => '\n' + '  '.repeat(Math.min(depth, MAX_INDENT_DEPTH));
  // Work is either text to write or a value to print at a depth; pushed in reverse order.
  if (skipped(value)) return { text: String(value), cut: false };
  const work: ({ text: string } | { value: unknown; depth: number })[] = [{ value, depth: 0 }];
  while (work.length > 0) {
    if (length > budget) break;
    const item = work.pop() as { text: string } | { value: unknown; depth: number };
    if ('text' in item) {
      parts.push(item.text);
      length += item.text.length;
      continue;
    }
    const { value: current, depth } = item;
    if (typeof current !== 'object' || current === null) {
      const text = scalar(current);
      parts.push(text);
      length += text.length;
      continue;
    }
    const array = Array.isArray(current);
    const entries: [string | undefined, unknown][] = array
      ? (current as unknown[]).map((element) => [undefined, skipped(element) ? null : element])
      : Object.entries(current).filter(([, member]) => !skipped(member));
    if (entries.length === 0) {
      const text = array ? '[]' : '{}';
      parts.push(text);
      length += text.length;
      continue;
    }
    const inner = indent(depth + 1);
    work.push({ text: indent(depth) + (array ? ']' : '}') });
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, member] = entries[i];
      work.push({ value: member, depth: depth + 1 });
      work.push({
        text: (i === 0 ? '' : ',') + inner + (key === undefined ? '' : `${JSON.stringify(key)}: `),
      });
    }
    parts.push(array ? '[' : '{');
    length += 1;
  }
  if (work.length === 0 && length <= budget) return { text: parts.join(''), cut: false };
  return { text: parts.join('').slice(0, budget) + '…', cut: true };
}
