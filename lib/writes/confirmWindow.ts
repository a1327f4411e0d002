import { browser } from 'wxt/browser';

/**
 * The draft's one confirm window: lib/writes (the owner of a write's lifecycle) opens it for a new
 * draft and focuses it on Review. The page itself is lib/pages/confirm; it reads its draft id with
 * lib/pages/navigation.ts's draftIdFromSearch.
 */

/** The confirm page for one outbox draft. */
export function confirmPageUrl(draftId: string): string {
  return `${browser.runtime.getURL('/confirm.html')}?draft=${encodeURIComponent(draftId)}`;
}

/**
 * Confirmations happen in an extension page of its own window: a web page cannot script,
 * overlay or click into it. The worker opens it for a new draft, the popup for a queued one.
 */
export async function openConfirmWindow(draftId: string): Promise<number | undefined> {
  const created = await browser.windows.create({
    url: confirmPageUrl(draftId),
    type: 'popup',
    width: 520,
    height: 720,
    focused: true,
  });
  return created?.id;
}

/**
 * Brings a draft's confirm window to the front; false when it is gone (closed, or an id from
 * before a browser restart that now names another window), so the caller opens a new one.
 */
export async function focusConfirmWindow(windowId: number, draftId: string): Promise<boolean> {
  try {
    const window = await browser.windows.get(windowId, { populate: true });
    if (!window || window.type !== 'popup') return false;
    // Without the tabs permission a tab's URL may be hidden; when it shows, it must be this draft's page.
    const url = window.tabs?.[0]?.url;
    if (url !== undefined && url !== confirmPageUrl(draftId)) return false;
    return (await browser.windows.update(windowId, { focused: true })) !== undefined;
  } catch {
    return false;
  }
}
