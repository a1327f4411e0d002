/**
 * The draft of a page from its article, read with Readability. Only the extractor injected on a
 * click (entrypoints/article-capture.ts) imports this, so the content script on every finance
 * page never carries Readability.
 */
import { extractArticle } from '@/lib/finance/article';
import { buildDraft, type BuildDraftInput, type PlaybookDraft } from '@/lib/finance/draft';

/**
 * Throws `UncitableUrlError` like `buildDraft`. A page Readability cannot read still gets the
 * draft of its text and selection: the content script sends no draft of its own any more.
 */
export function buildArticleDraft(input: Omit<BuildDraftInput, 'article' | 'link'>): PlaybookDraft {
  let article: ReturnType<typeof extractArticle> | undefined;
  try {
    article = input.document ? extractArticle(input.document) : undefined;
  } catch {
    article = undefined;
  }
  return buildDraft({ ...input, article });
}
