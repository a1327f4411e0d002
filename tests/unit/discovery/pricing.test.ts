import { describe, expect, it } from 'vitest';
import { markdownToSafeBlocks } from '@/lib/discovery/markdown';
import { pricingRows, PricingFormatError } from '@/lib/discovery/pricing';

/** The side panel's path: the document lexed, then its plans read from the blocks. */
const plansOf = (markdown: string, url: string) => pricingRows(markdownToSafeBlocks(markdown, url));

const DOC = 'https://svc.example/pricing.md';

describe('pricingRows', () => {
  it('reads rows by header name', () => {
    const rows = plansOf(
      '# Pricing\n\nIntro.\n\n| Plan | Monthly price | Limits |\n|---|---|---|\n| Free | $0 | 100 requests/day |\n| **Pro** | $29 / month | 10,000 requests/day |\n',
      DOC,
    );
    expect(rows).toEqual([
      { name: 'Free', monthlyPrice: '$0', monthlyPriceAmount: 0, limits: '100 requests/day' },
      { name: 'Pro', monthlyPrice: '$29 / month', monthlyPriceAmount: 29, limits: '10,000 requests/day' },
    ]);
  });

  it.each([
    [
      'reordered columns and case',
      '| LIMITS | price | NAME |\n|-|-|-|\n| 5 | $1 | Tiny |',
      { name: 'Tiny', monthlyPrice: '$1', limits: '5' },
    ],
    [
      'extra columns',
      '| Plan | Seats | Monthly Price | Support | Limits |\n|-|-|-|-|-|\n| Team | 5 | €1,200.50 | yes | many |',
      { name: 'Team', monthlyPrice: '€1,200.50', monthlyPriceAmount: 1200.5, limits: 'many' },
    ],
    [
      'no limits column',
      '| Tier | Cost |\n|-|-|\n| Free | Free |',
      { name: 'Free', monthlyPrice: 'Free', monthlyPriceAmount: 0, limits: '' },
    ],
    [
      'price without number',
      '| Plan | Price | Limits |\n|-|-|-|\n| Enterprise | Contact us | custom |',
      { monthlyPriceAmount: null },
    ],
    [
      'link in a cell',
      '| Plan | Price | Limits |\n|-|-|-|\n| [Pro](javascript:alert(1)) | $9 | x |',
      { name: 'Pro' },
    ],
    [
      'html in a cell',
      '| Plan | Price | Limits |\n|-|-|-|\n| <b>Pro</b> | $9 | <script>x</script>y |',
      { name: 'Pro', limits: 'y' },
    ],
  ])('tolerates %s', (_name, markdown, expected) => {
    const rows = plansOf(markdown, DOC);
    expect(rows[0]).toMatchObject(expected);
  });

  it('skips a table without the needed columns and reads the plans table after it', () => {
    const rows = plansOf(
      '| Feature | Notes |\n|-|-|\n| a | b |\n\n| Plan | Price |\n|-|-|\n| Pro | $5 |',
      DOC,
    );
    expect(rows.map((r) => r.name)).toEqual(['Pro']);
  });

  it.each([
    ['no table', '# Pricing\n\nCall us.'],
    ['empty document', ''],
    ['table without a price column', '| Plan | Limits |\n|-|-|\n| Free | 1 |'],
    ['a table only in a code block', '```\n| Plan | Price |\n|-|-|\n| Pro | $5 |\n```'],
  ])('rejects %s', (_name, markdown) => {
    expect(() => plansOf(markdown, DOC)).toThrow(PricingFormatError);
  });

  it('bounds the number of rows and the cell length', () => {
    const rows = plansOf(`| Plan | Price |\n|-|-|\n${`| ${'p'.repeat(2_000)} | $1 |\n`.repeat(500)}`, DOC);
    expect(rows).toHaveLength(100);
    expect(rows[0].name.length).toBeLessThanOrEqual(500);
  });
});
