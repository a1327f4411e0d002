import { browser } from 'wxt/browser';

/**
 * Confirmations happen in an extension page of its own window: a web page cannot script,
 * overlay or click into it.
 */
export async function openConfirmWindow(draftId: string): Promise<void> {
  const url = `${browser.runtime.getURL('/confirm.html')}?draft=${encodeURIComponent(draftId)}`;
  await browser.windows.create({ url, type: 'popup', width: 520, height: 720, focused: true });
}
