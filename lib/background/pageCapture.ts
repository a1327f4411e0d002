import { browser } from 'wxt/browser';
import { log } from '@/lib/log';
import { ARTICLE_CAPTURE_FILE, ARTICLE_CAPTURE_GLOBAL } from '@/lib/finance/captureGlobal';
import { sanitizeDraft } from '@/lib/finance/schema';

/**
 * The draft of the page in `tabId`'s top frame, read with Readability by the extractor injected
 * now, on the user's click: the content script on every finance page stays light. Undefined
 * when injection fails or the result is not a valid draft; the caller then keeps the content
 * script's own draft. The result is page-derived and untrusted like any draft.
 */
export async function captureArticleDraft(tabId: number, selection: string): Promise<unknown> {
  try {
    // No frame ids: the top frame of the page the tab shows. A prerendered page the user opened
    // keeps the other frame id it had while prerendering (w3c/webextensions#396).
    const target = { tabId };
    await browser.scripting.executeScript({ target, files: [ARTICLE_CAPTURE_FILE] });
    const [answer] = await browser.scripting.executeScript({
      target,
      // Runs in the tab's isolated world, where the file above left its function.
      func: (name: string, text: string) => {
        const capture = (globalThis as Record<string, unknown>)[name];
        return typeof capture === 'function' ? (capture as (text: string) => unknown)(text) : null;
      },
      args: [ARTICLE_CAPTURE_GLOBAL, selection],
    });
    const draft: unknown = answer?.result;
    if (draft === null || draft === undefined || !sanitizeDraft(draft).ok) return undefined;
    return draft;
  } catch (error) {
    log.warn('draft.capture-failed', { error });
    return undefined;
  }
}
