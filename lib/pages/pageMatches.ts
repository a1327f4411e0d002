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
