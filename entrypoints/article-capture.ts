import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { buildArticleDraft } from '@/lib/finance/capture';
import { ARTICLE_CAPTURE_GLOBAL, type ArticleCaptureFunction } from '@/lib/finance/captureGlobal';

/**
 * The article extractor, injected by the worker into the clicked tab's top frame only when the
 * user asks for a draft (lib/background/pageCapture.ts). It runs in the extension's isolated
 * world: the page can neither see nor replace the function it leaves there.
 */
export default defineUnlistedScript(() => {
  const capture: ArticleCaptureFunction = (selection) => {
    try {
      return buildArticleDraft({ url: location.href, title: document.title, document, selection });
    } catch {
      return null;
    }
  };
  (globalThis as Record<string, unknown>)[ARTICLE_CAPTURE_GLOBAL] = capture;
});
