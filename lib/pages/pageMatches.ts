import { browser } from 'wxt/browser';
import { sendMessage } from '@/lib/messaging/client';
import type { PageMatches } from '@/lib/messaging/protocol';
import { afterFirstPaint } from './firstPaint';

/**
 * "On this page" for the popup and the side panel: the active tab of their window, asked of the
 * worker in one message. No `tabs` permission: only the tab's id is read.
 */
export async function loadPageMatches(signal?: AbortSignal): Promise<PageMatches> {
  await afterFirstPaint();
  // A popup closed (or a section unmounted) before its first frame asks nothing.
  signal?.throwIfAborted();
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  const tabId = typeof tab?.id === 'number' && tab.id >= 0 ? tab.id : undefined;
  return sendMessage('getPageMatches', { tabId });
}

/** A page that replaces its address on a timer fires a load event each time: asked once per quiet spell. */
export const ACTIVE_PAGE_SETTLE_MS = 250;

/**
 * For a page that stays open while the user browses (the side panel): calls `changed` when
 * another tab is made active in its window, or the active tab there finishes loading a page
 * (single-page apps' pushState included), once things have been quiet for
 * `ACTIVE_PAGE_SETTLE_MS`. Neither event needs the `tabs` permission. Returns the removal.
 */
export function watchActivePage(changed: () => void): () => void {
  const ownWindow = (async () => (await browser.windows.getCurrent())?.id)().catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let removed = false;
  const inOwnWindow = (windowId: number) => {
    void ownWindow.then((id) => {
      if (removed || id !== windowId) return;
      clearTimeout(timer);
      timer = setTimeout(changed, ACTIVE_PAGE_SETTLE_MS);
    });
  };
  const activated = ({ windowId }: { windowId: number }) => inOwnWindow(windowId);
  const updated = (
    _tabId: number,
    change: { status?: string },
    tab: { active: boolean; windowId?: number },
  ) => {
    if (change.status === 'complete' && tab.active && tab.windowId !== undefined) inOwnWindow(tab.windowId);
  };
  browser.tabs.onActivated.addListener(activated);
  browser.tabs.onUpdated.addListener(updated);
  return () => {
    removed = true;
    clearTimeout(timer);
    browser.tabs.onActivated.removeListener(activated);
    browser.tabs.onUpdated.removeListener(updated);
  };
}
