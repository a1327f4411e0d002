import { pricingSource, type DiscoveryReport } from '@/lib/discovery';
import { markdownToSafeBlocks, type SafeBlock } from '@/lib/discovery/markdown';
import { parsePricingTable, type PricingRow } from '@/lib/discovery/pricing';

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
  return 'The document does not have the expected shape.';
}

/** The plans of the report's pricing document, or why it has none. */
export function shownPricing(report: DiscoveryReport): Pick<ShownDocuments, 'pricing' | 'pricingError'> {
  const source = pricingSource(report.documents);
  if (!source) return { pricing: null };
  try {
    return { pricing: parsePricingTable(source.text, source.baseUrl) };
  } catch (error) {
    return { pricing: null, pricingError: pricingProblem(error) };
  }
}

/** Every document of the report converted once, with the same bounded code the worker used to run. */
export function shownDocuments(report: DiscoveryReport): ShownDocuments {
  const { markdownSources, skills } = report.documents;
  const markdown = new Map(
    Object.entries(markdownSources).map(([path, source]) => [
      path,
      markdownToSafeBlocks(source.text, source.baseUrl),
    ]),
  );
  const skillBodies = new Map<string, SafeBlock[]>();
  for (const skill of skills)
    if (skill.body) skillBodies.set(skill.name, markdownToSafeBlocks(skill.body.text, skill.body.baseUrl));
  return { markdown, skillBodies, ...shownPricing(report) };
}
