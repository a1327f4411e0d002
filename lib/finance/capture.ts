/**
 * The draft of a page from its article, read with Readability. Only the extractor injected on a
 * click (entrypoints/article-capture.ts) imports this, so the content script on every finance
 * page never carries Readability.
 */
import { extractArticle } from '@/lib/finance/article';
import { buildDraft, type BuildDraftInput, type PlaybookDraft } from '@/lib/finance/draft';

/** Throws `UncitableUrlError` like `buildDraft`. */
export function buildArticleDraft(input: Omit<BuildDraftInput, 'article' | 'link'>): PlaybookDraft {
  const article = input.document ? extractArticle(input.document) : undefined;
  return buildDraft({ ...input, article });
}
