// @vitest-environment happy-dom
/**
 * MCP output is service output: a tool result or a tool's inputSchema, small on the wire, may not
 * grow into something large once the side panel shows it. Pretty-printing indents by depth, so a
 * value nested d deep printed as it is costs about d² characters: 2 KB of `[[[…]]]` became 2 MB,
 * and a 1 MB result of such values a gigabyte; deeper still, JSON.stringify overflowed the stack
 * and took the whole side panel down with it.
 */
import { cleanup, render, screen } from '@testing-library/preact';
import { h } from 'preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpToolBrowser } from '@/lib/pages/sidepanel/McpToolBrowser';
import { contentBlocksOf } from '@/lib/pages/sidepanel/schemaForm';
import {
  MAX_LISTED_TOOLS,
  MAX_RESULT_BLOCKS,
  MAX_RESULT_CHARS,
  prettyJson,
} from '@/lib/pages/sidepanel/boundedJson';

afterEach(cleanup);

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObject = (depth: number): unknown => {
  let value: unknown = {};
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};
const shownLength = (blocks: { text: string }[]) => blocks.reduce((sum, block) => sum + block.text.length, 0);

describe('a tool result as the side panel shows it', () => {
  it.each([200, 1000])('grows at most linearly with its nesting (depth %i)', (depth) => {
    const text = nested(depth);
    const shown = shownLength(contentBlocksOf([{ type: 'text', text }]));
    // Pretty-printing may add a bounded indent per line, never one proportional to the depth.
    expect(shown).toBeLessThanOrEqual(text.length * 40);
  });

  it('shows a result 10x as deep at most about 10x as long', () => {
    const once = shownLength(contentBlocksOf([{ type: 'text', text: nested(300) }]));
    const tenfold = shownLength(contentBlocksOf([{ type: 'text', text: nested(3000) }]));
    expect(tenfold / once).toBeLessThan(15);
  });

  it('keeps the whole result under a fixed size, however many blocks the server sends', () => {
    const block = { type: 'text', text: nested(200) };
    const blocks = contentBlocksOf(Array.from({ length: 500 }, () => block));
    expect(shownLength(blocks)).toBeLessThanOrEqual(MAX_RESULT_CHARS + 1);
    expect(blocks.length).toBeLessThanOrEqual(MAX_RESULT_BLOCKS);
    expect(blocks.at(-1)?.cut).toBe(true);
  });

  it('shows a value nested deeper than the stack allows, instead of throwing', () => {
    const deep = nestedObject(200_000);
    expect(() => contentBlocksOf([deep])).not.toThrow();
    expect(shownLength(contentBlocksOf([deep]))).toBeLessThanOrEqual(MAX_RESULT_CHARS + 1);
  });

  it('says when it shows only part of a result', () => {
    render(
      h(McpToolBrowser, {
        tools: [
          { name: 'search', title: '', description: '', readOnly: true, inputSchema: { type: 'object' } },
        ],
        calls: {
          search: {
            status: 'done',
            content: Array.from({ length: MAX_RESULT_BLOCKS + 5 }, () => ({ type: 'text', text: 'x' })),
          },
        },
        onCall: vi.fn(),
      }),
    );
    const result = screen.getByRole('region', { name: 'Result of search' });
    expect(result.querySelectorAll('pre')).toHaveLength(MAX_RESULT_BLOCKS);
    expect(result.textContent).toContain('Only the beginning of the result is shown.');
  });
});

describe('prettyJson', () => {
  it.each([
    [{ a: 1, b: [true, null, 'x'], c: {} }],
    [[]],
    [[1, [2, [3]]]],
    ['text "quoted"'],
    [{ nested: { deeper: { list: [1, 2, { k: 'v' }] } } }],
  ])('prints what JSON.stringify(value, null, 2) prints for shallow values: %j', (value) => {
    expect(prettyJson(value, 10_000)).toEqual({ text: JSON.stringify(value, null, 2), cut: false });
  });

  it('leaves out what JSON leaves out and writes null where JSON does', () => {
    const value = { a: undefined, b: [undefined, Number.NaN, Infinity], c: 1 };
    expect(prettyJson(value, 10_000).text).toBe(JSON.stringify(value, null, 2));
  });

  it('stops at its budget and marks the cut', () => {
    const { text, cut } = prettyJson(
      Array.from({ length: 10_000 }, (_v, i) => i),
      1000,
    );
    expect(cut).toBe(true);
    expect(text.length).toBeLessThanOrEqual(1001);
    expect(text.endsWith('…')).toBe(true);
  });
});

describe('the tool list as the side panel shows it', () => {
  const tool = (i: number) => ({
    name: `tool${i}`,
    title: '',
    description: '',
    readOnly: true,
    inputSchema: { type: 'object', x: JSON.parse(nested(400)) as unknown },
  });

  it('draws at most MAX_LISTED_TOOLS tools and says how many it left out', () => {
    const { container } = render(
      h(McpToolBrowser, {
        tools: Array.from({ length: MAX_LISTED_TOOLS + 30 }, (_v, i) => tool(i)),
        calls: {},
        onCall: vi.fn(),
      }),
    );
    expect(container.querySelectorAll('form')).toHaveLength(MAX_LISTED_TOOLS);
    expect(container.textContent).toContain('Tools not shown: 30.');
  });

  it('prints an inputSchema in space linear in its size, and a deep one without throwing', () => {
    const { container } = render(h(McpToolBrowser, { tools: [tool(1)], calls: {}, onCall: vi.fn() }));
    const printed = container.querySelector('pre.json')?.textContent ?? '';
    expect(printed.length).toBeLessThanOrEqual(JSON.stringify(tool(1).inputSchema).length * 40);
    cleanup();
    const deep = { ...tool(2), inputSchema: { type: 'object', x: nestedObject(200_000) } };
    expect(() => render(h(McpToolBrowser, { tools: [deep], calls: {}, onCall: vi.fn() }))).not.toThrow();
  });
});
