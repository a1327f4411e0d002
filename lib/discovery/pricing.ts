/**
 * The plans table of `/pricing.md` read as data rows. Columns are found by header name
 * (case-insensitive, extra columns ignored) so a reworded or widened table still reads.
 */
import { t } from '@/lib/i18n';
import { z } from 'zod';
import { inlineText, type SafeBlock, type SafeInline } from './markdown';

const MAX_ROWS = 100;
const MAX_CELL = 500;

export const PricingRowSchema = z.object({
  name: z.string().min(1).max(MAX_CELL),
  monthlyPrice: z.string().max(MAX_CELL),
  /** The first number in the price cell (0 for "Free"), or null when none can be read. */
  monthlyPriceAmount: z.number().nonnegative().nullable(),
  limits: z.string().max(MAX_CELL),
});
export type PricingRow = z.infer<typeof PricingRowSchema>;

export class PricingFormatError extends Error {
  override name = 'PricingFormatError';
}

const NAME_HEADER = /^(plan|name|tier)\b/i;
const PRICE_HEADER = /(monthly|price|cost|per month)/i;
const LIMITS_HEADER = /(limit|quota|includes)/i;

function cellText(cell: SafeInline[] | undefined): string {
  const text = inlineText(cell ?? [])
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > MAX_CELL ? text.slice(0, MAX_CELL) : text;
}

function priceAmount(price: string): number | null {
  if (/^free\b/i.test(price)) return 0;
  const match = /(\d{1,9}(?:[.,]\d{1,2})?)/.exec(price.replace(/(\d),(\d{3})/g, '$1$2'));
  if (!match) return null;
  const amount = Number(match[1].replace(',', '.'));
  return Number.isFinite(amount) ? amount : null;
}

/** Rows of the first table that has a plan-name and a price column, from the document's lexed blocks. */
export function pricingRows(blocks: SafeBlock[]): PricingRow[] {
  const tables = blocks.filter(
    (block): block is Extract<SafeBlock, { type: 'table' }> => block.type === 'table',
  );
  for (const table of tables) {
    const headers = table.header.map(cellText);
    const nameColumn = headers.findIndex((h) => NAME_HEADER.test(h));
    const priceColumn = headers.findIndex((h, i) => i !== nameColumn && PRICE_HEADER.test(h));
    const limitsColumn = headers.findIndex(
      (h, i) => i !== nameColumn && i !== priceColumn && LIMITS_HEADER.test(h),
    );
    if (nameColumn < 0 || priceColumn < 0) continue;
    const rows: PricingRow[] = [];
    for (const row of table.rows.slice(0, MAX_ROWS)) {
      const name = cellText(row[nameColumn]);
      if (!name) continue;
      const monthlyPrice = cellText(row[priceColumn]);
      rows.push(
        PricingRowSchema.parse({
          name,
          monthlyPrice,
          monthlyPriceAmount: priceAmount(monthlyPrice),
          limits: limitsColumn >= 0 ? cellText(row[limitsColumn]) : '',
        }),
      );
    }
    return rows;
  }
  throw new PricingFormatError(t('errors.discovery.noPricingTable'));
}
