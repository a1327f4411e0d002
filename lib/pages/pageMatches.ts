import { browser } from 'wxt/browser';
import { sendMessage } from '@/lib/messaging/client';
import type { PageMatches } from '@/lib/messaging/protocol';
import { afterFirstPaint } from './useAsync';

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

/**
 * For a page that stays open while the user browses (the side panel): calls `changed` when
 * another tab is made active in its window, or the active tab there finishes loading a page.
 * Neither needs the `tabs` permission. Returns the removal.
 */
export function watchActivePage(changed: () => void): () => void {
  const ownWindow = browser.windows.getCurrent().then(
    (window) => window.id,
    () => undefined,
  );
  const inOwnWindow = (windowId: number) => {
    void ownWindow.then((id) => {
      if (id === windowId) changed();
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
    browser.tabs.onActivated.removeListener(activated);
    browser.tabs.onUpdated.removeListener(updated);
  };
}
