import { pricingSource, type DiscoveryReport, type MarkdownSource } from '@/lib/discovery';
import { markdownToSafeBlocks, type SafeBlock } from '@/lib/discovery/markdown';
import { pricingRows, type PricingRow } from '@/lib/discovery/pricing';
import { t } from '@/lib/i18n';

/** A report's Markdown as the side panel shows it, converted here so the lexer stays out of the worker. */
export interface ShownDocuments {
  /** Blocks of every Markdown document, by contract path (`/auth.md`). */
  markdown: Map<string, SafeBlock[]>;
  pricing: PricingRow[] | null;
  /** Why the fetched pricing document gave no plans. */
  pricingError?: string;
  /** Blocks of each verified skill's body, by skill name. */
  skillBodies: Map<string, SafeBlock[]>;
}

function pricingProblem(error: unknown): string {
  if (error instanceof Error && error.name !== 'ZodError') return error.message.slice(0, 300);
  return t('sidepanel.discovery.badShape');
}

/** The plans of the pricing document (its blocks, lexed once), or why it has none. */
function pricingOf(blocks: SafeBlock[] | undefined): Pick<ShownDocuments, 'pricing' | 'pricingError'> {
  if (!blocks) return { pricing: null };
  try {
    return { pricing: pricingRows(blocks) };
  } catch (error) {
    return { pricing: null, pricingError: pricingProblem(error) };
  }
}

/** The plans of the report's pricing document, or why it has none. */
export function shownPricing(report: DiscoveryReport): Pick<ShownDocuments, 'pricing' | 'pricingError'> {
  const source = pricingSource(report.documents);
  return pricingOf(source ? markdownToSafeBlocks(source.text, source.baseUrl) : undefined);
}

/** Every document of the report converted once, with the same bounded code the worker used to run. */
export function shownDocuments(report: DiscoveryReport): ShownDocuments {
  const { markdownSources, skills } = report.documents;
  const blocksOf = new Map<MarkdownSource, SafeBlock[]>();
  const markdown = new Map(
    Object.entries(markdownSources).map(([path, source]) => {
      const blocks = markdownToSafeBlocks(source.text, source.baseUrl);
      blocksOf.set(source, blocks);
      return [path, blocks];
    }),
  );
  const pricing = pricingSource(report.documents);
  const skillBodies = new Map<string, SafeBlock[]>();
  for (const skill of skills)
    if (skill.body) skillBodies.set(skill.name, markdownToSafeBlocks(skill.body.text, skill.body.baseUrl));
  // The pricing document is one of them: its plans come from the blocks just made, not a second lexing.
  return { markdown, skillBodies, ...pricingOf(pricing ? blocksOf.get(pricing) : undefined) };
}
