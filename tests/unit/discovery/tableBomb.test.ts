import { Tokenizer, type Tokens } from 'marked';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { markdownToSafeBlocks, truncationNotice, type SafeBlock } from '@/lib/discovery/markdown';
import { pricingRows } from '@/lib/discovery/pricing';
import { TABLE_BOMBS } from '../../fixtures/hostile/tableBomb';

/**
 * The table bomb, bounded where the memory goes: the cells marked's lexer
 * builds are counted as it builds them, and must stay linear in the document and bounded.
 */
let lexedCells = 0;

beforeEach(() => {
  lexedCells = 0;
  const original = Tokenizer.prototype.table;
  vi.spyOn(Tokenizer.prototype, 'table').mockImplementation(function (this: Tokenizer, src: string) {
    const token: Tokens.Table | undefined = original.call(this, src);
    if (token) lexedCells += token.header.length + token.rows.reduce((sum, cells) => sum + cells.length, 0);
    return token;
  });
});

afterEach(() => vi.restoreAllMocks());

function renderedCells(blocks: readonly SafeBlock[]): number {
  let cells = 0;
  for (const block of blocks) {
    if (block.type === 'table')
      cells += block.header.length + block.rows.reduce((sum, r) => sum + r.length, 0);
    else if (block.type === 'blockquote') cells += renderedCells(block.children);
    else if (block.type === 'list') for (const item of block.items) cells += renderedCells(item.children);
  }
  return cells;
}

/** The absolute bound: what a side panel may be asked to hold for one document's tables. */
const MAX_CELLS = 10_000;

describe('Markdown table bombs', () => {
  it.each(TABLE_BOMBS.map((bomb) => [bomb.shape, bomb.markdown] as const))(
    '%s: the lexer builds cells linear in the document, and no more than the bound',
    (_shape, markdown) => {
      const blocks = markdownToSafeBlocks(markdown, 'https://svc.example/pricing.md');
      expect(lexedCells).toBeLessThanOrEqual(Math.min(MAX_CELLS, markdown.length));
      expect(renderedCells(blocks)).toBeLessThanOrEqual(lexedCells);
      const last = blocks[blocks.length - 1];
      expect(last?.type === 'paragraph' && last.children[0]).toEqual({
        type: 'text',
        text: truncationNotice(),
      });
    },
  );

  it('the pricing parse of a bomb is bounded the same way', () => {
    const bomb = TABLE_BOMBS[0].markdown;
    // No plan table is found in it, after a bounded amount of work (read as the side panel reads it).
    expect(() => pricingRows(markdownToSafeBlocks(bomb, 'https://svc.example/pricing.md'))).toThrow();
    expect(lexedCells).toBeLessThanOrEqual(Math.min(MAX_CELLS, bomb.length));
  });

  it('an ordinary table is kept whole, 64 columns wide', () => {
    const header = `|${Array.from({ length: 64 }, (_, i) => `c${i}|`).join('')}`;
    const markdown = `${header}\n|${'---|'.repeat(64)}\n${`|${'1|'.repeat(64)}\n`.repeat(20)}`;
    const blocks = markdownToSafeBlocks(markdown, 'https://svc.example/pricing.md');
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.type === 'table' && [blocks[0].header.length, blocks[0].rows.length]).toEqual([64, 20]);
    expect(lexedCells).toBe(64 * 21);
  });

  it('a table too wide to build stays readable as text', () => {
    const markdown = `${`|h`.repeat(100)}|\n${'|-'.repeat(100)}|\n|a|b|\n`;
    const blocks = markdownToSafeBlocks(markdown, 'https://svc.example/pricing.md');
    expect(lexedCells).toBe(0);
    expect(blocks[0]?.type).toBe('paragraph');
  });
});
