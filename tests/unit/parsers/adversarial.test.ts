import { describe, expect, it } from 'vitest';
import { HOSTILE_CASES, MB } from '../../fixtures/hostile/parsers';
import type { LlmsTxt } from '@/lib/discovery/llmsTxt';
import type { SafeBlock } from '@/lib/discovery/markdown';
import { SseLimitError, SSE_LIMITS } from '@/lib/events/sse';
import { ApiError } from '@/lib/api/errors';
import { cpuNow, linearBound } from '../../fixtures/linearTime';

// A guard against super-linear time only, in linear passes over the same input timed here and now:
// 1 MB parsed in linear time costs up to a few hundred passes (Markdown), a quadratic parser a million.
const LINEAR_PASSES = 2_000;

function depth(blocks: readonly SafeBlock[]): number {
  let deepest = 0;
  for (const block of blocks) {
    const children =
      block.type === 'blockquote'
        ? block.children
        : block.type === 'list'
          ? block.items.flatMap((i) => i.children)
          : [];
    deepest = Math.max(deepest, 1 + depth(children));
  }
  return deepest;
}

/** What a sensible, bounded result looks like for each case. */
const CHECKS: Record<string, (result: unknown) => void> = {
  'llms.txt: heading lines of 4,000 spaces': (result) => {
    const llms = result as LlmsTxt;
    expect(llms.sections).toHaveLength(200);
    expect(llms.sections[0]?.title).toBe('a x');
  },
  'llms.txt: one 1 MB line of `[`': (result) => expect((result as LlmsTxt).sections).toEqual([]),
  'llms.txt: link lines with a spaced note and U+2028': (result) => {
    const llms = result as LlmsTxt;
    expect(llms.sections[0]?.links).toHaveLength(2_000);
    expect(llms.sections[0]?.links[0]?.note).toBe('x');
  },
  'markdown: `>` nested 1,000,000 deep': (result) => {
    const blocks = result as SafeBlock[];
    expect(depth(blocks)).toBeLessThanOrEqual(9);
    expect(JSON.stringify(blocks).length).toBeLessThan(MB);
  },
  'markdown: staircase of `>` up to 200 deep': (result) =>
    expect(depth(result as SafeBlock[])).toBeLessThanOrEqual(13),
  'markdown: nested lists: `- ` and indentation stairs': (result) =>
    expect(depth(result as SafeBlock[])).toBeLessThanOrEqual(13),
  'markdown: `[a](` flood in short lines': (result) =>
    expect((result as SafeBlock[]).length).toBeGreaterThan(0),
  'markdown: one 1 MB line of `[`': (result) => {
    const text = JSON.stringify(result);
    expect(text).toContain('[[[');
    expect(text.length).toBeLessThan(100_000);
  },
  'pricing.md: table of 1 MB with `|` floods': (result) => {
    const rows = result as { name: string }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(100);
    expect(rows[0]?.name).toBe('Pro');
  },
  'skill front matter: `---` without an end, key lines of spaces and U+2028': (result) =>
    expect(result).toBeInstanceOf(Error),
  'skills index: 20,000 entries': (result) => expect(result).toBeInstanceOf(Error),
  'agent card: 1 MB of links and nesting': (result) => expect(result).toBeInstanceOf(Error),
  'MCP card: 1 MB of tools': (result) => expect(result).toBeInstanceOf(Error),
  'OpenAPI: 1 MB of paths and a long $ref chain': (result) =>
    expect(result).toMatchObject({ apiOrigin: 'https://svc.example', pathCount: 30_000 }),
  'Link header: `<` flood': (result) => expect(result).toBeUndefined(),
  'Link header: `;` and quote flood': (result) => expect(result).toBeUndefined(),
  'RateLimit / RateLimit-Policy: commas, semicolons and quotes': (result) =>
    expect(result).toEqual([undefined, undefined]),
  'Retry-After / Sunset / Deprecation: spaces and digits': (result) =>
    expect(result).toEqual([undefined, undefined, undefined]),
  'SSE: 1 MB without any newline, in 16 KB chunks': (result) => {
    const outcome = result as { error?: unknown; fed: number; pending: number };
    expect(outcome.error).toBeInstanceOf(SseLimitError);
    expect(outcome.fed).toBeLessThanOrEqual(SSE_LIMITS.maxLineChars);
    expect(outcome.pending).toBeLessThanOrEqual(SSE_LIMITS.maxLineChars + 16_384);
  },
  'SSE: short lines ending in one CR': (result) =>
    expect(result).toEqual([{ id: undefined, event: undefined, data: 'x' }]),
  'problem body: 1 MB problem+json with 20,000 field errors': (result) => {
    const parsed = result as { success: boolean; data?: { errors?: unknown[] } };
    expect(parsed.success).toBe(true);
    expect(parsed.data?.errors).toHaveLength(20_000);
  },
  'problem body: `[` nested 1,000,000 deep': (result) => {
    expect(result).toBeInstanceOf(ApiError);
    expect((result as ApiError).kind).toBe('malformed-response');
  },
};

describe('every parser of service input on 1 MB of hostile input', () => {
  it('has a check for every case', () => {
    expect(HOSTILE_CASES.map((c) => `${c.parser}: ${c.shape}`).sort()).toEqual(Object.keys(CHECKS).sort());
  });

  it.each(HOSTILE_CASES.map((c) => [`${c.parser}: ${c.shape}`, c] as const))(
    '%s: in linear time, with a bounded result',
    async (name, hostile) => {
      const input = hostile.input();
      expect(input.length).toBeGreaterThanOrEqual(MB * 0.9);
      const started = cpuNow();
      const result = await hostile.run(input);
      const elapsed = cpuNow() - started;
      const bound = linearBound(input, LINEAR_PASSES);
      expect(elapsed).toBeLessThan(bound);
      CHECKS[name]?.(result);
    },
  );
});
