/**
 * The shape of a playbook draft, for the background to validate any draft a content script sent.
 * Such a draft is untrusted: strict keys, bounded lengths, http(s) URLs, safe ticker symbols.
 */
import { z } from 'zod';
import type { FieldProblem } from '@/lib/contract/fieldProblems';
import { TICKER_PATTERN } from '@/lib/finance/symbols';
import { cleanText, DRAFT_LIMITS } from '@/lib/finance/text';

/** Page text: invisible and control characters stripped, then bounded (never truncated here). */
function pageText(max: number, options: { multiline?: boolean; required: boolean }) {
  return (
    z
      .string()
      // A string far beyond the bound is refused before any work is spent cleaning it. The issue
      // names the real bound (`max`), not this looser one: the user is told the limit that holds.
      .refine((value) => value.length <= max * 4, {
        error: `must be at most ${max} characters`,
        params: { problem: 'too-long' satisfies FieldProblem, max },
        abort: true,
      })
      .transform((value) => cleanText(value, options))
      .pipe(
        z
          .string()
          .min(options.required ? 1 : 0, { error: 'must not be empty' })
          .max(max, { error: `must be at most ${max} characters` }),
      )
  );
}

const httpUrl = z
  .string()
  .max(DRAFT_LIMITS.url, { error: `must be at most ${DRAFT_LIMITS.url} characters` })
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
      } catch {
        return false;
      }
    },
    // The words are lib/i18n's (this schema also runs where no translations are bundled).
    {
      error: 'must be an http(s) URL without credentials',
      params: { problem: 'http-url' satisfies FieldProblem },
    },
  );

const tickerSymbol = z.string().regex(TICKER_PATTERN, { error: 'is not a ticker symbol' });

export const playbookDraftSchema = z.strictObject({
  title: pageText(DRAFT_LIMITS.title, { required: true }),
  thesis: pageText(DRAFT_LIMITS.thesis, { multiline: true, required: true }),
  tickers: z
    .array(tickerSymbol)
    .max(DRAFT_LIMITS.tickers, { error: `must list at most ${DRAFT_LIMITS.tickers} tickers` })
    .transform((symbols) => [...new Set(symbols)]),
  visibility: z.literal('private', { error: 'a new draft is private' }),
  source: z.strictObject({
    url: httpUrl,
    title: pageText(DRAFT_LIMITS.sourceTitle, { required: false }),
    excerpt: pageText(DRAFT_LIMITS.excerpt, { required: false }),
  }),
});

/** A validated draft: the body of `createPlaybook` a user will be asked to confirm. */
export type PlaybookDraft = z.output<typeof playbookDraftSchema>;

export interface DraftError {
  /** Dotted path of the offending field (`source.url`, `tickers.3`), empty for the whole draft. */
  path: string;
  /** zod's issue code: words for a person come from lib/i18n (fieldProblemText), never zod's English. */
  code: string;
}

export type SanitizeDraftResult = { ok: true; draft: PlaybookDraft } | { ok: false; errors: DraftError[] };

/** Validates and cleans a draft from an untrusted sender; never throws. */
export function sanitizeDraft(input: unknown): SanitizeDraftResult {
  const parsed = playbookDraftSchema.safeParse(input);
  if (parsed.success) return { ok: true, draft: parsed.data };
  return {
    ok: false,
    errors: parsed.error.issues.slice(0, 20).map((issue) => ({
      path: issue.path.map(String).join('.'),
      code: issue.code,
    })),
  };
}
