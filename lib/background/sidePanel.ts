import { browser } from 'wxt/browser';
import { log } from '@/lib/log';

interface SidePanelApi {
  open(options: { tabId?: number; windowId?: number }): Promise<void>;
}
interface SidebarActionApi {
  open(): Promise<void>;
}

/**
 * Opens the side panel for a tab from a keyboard command or a menu click. It must be called
 * synchronously inside the listener: the user gesture does not survive an await.
 */
export function openSidePanelFor(tab: { id?: number; windowId?: number } | undefined): void {
  const api = browser as unknown as { sidePanel?: SidePanelApi; sidebarAction?: SidebarActionApi };
  // COMPAT(firefox): Firefox has no `sidePanel`; its sidebar opens in the current window.
  if (api.sidebarAction) {
    api.sidebarAction.open().catch((error: unknown) => log.warn('sidebar.open-failed', { error }));
    return;
  }
  if (!api.sidePanel || !tab) return;
  const target = typeof tab.id === 'number' && tab.id >= 0 ? { tabId: tab.id } : { windowId: tab.windowId };
  api.sidePanel.open(target).catch((error: unknown) => log.warn('sidepanel.open-failed', { error }));
}
