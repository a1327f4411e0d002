import { browser } from 'wxt/browser';
import { sidePanelFocusItem } from '@/lib/pages/navigation';

interface SidePanelApi {
  open(options: { windowId: number }): Promise<void>;
}

let knownWindowId: number | undefined;

/**
 * Learns the page's window ahead of any click, so `openSidePanel()` can call `sidePanel.open`
 * synchronously: the user gesture does not survive an await.
 */
export async function prepareSidePanel(): Promise<void> {
  const current = await browser.windows.getCurrent();
  if (typeof current.id === 'number') knownWindowId = current.id;
}

/** Opens the side panel (Chrome) or the sidebar (Firefox); must run inside a user gesture. */
export async function openSidePanel(): Promise<void> {
  const api = browser as unknown as {
    sidePanel?: SidePanelApi;
    sidebarAction?: { open(): Promise<void> };
  };
  if (api.sidebarAction) {
    await api.sidebarAction.open();
    return;
  }
  if (!api.sidePanel) return;
  if (knownWindowId !== undefined) {
    await api.sidePanel.open({ windowId: knownWindowId });
    return;
  }
  // Not prepared: still try, though some browsers drop the gesture across this await.
  const current = await browser.windows.getCurrent();
  if (typeof current.id === 'number') await api.sidePanel.open({ windowId: current.id });
}

/**
 * Opens the side panel on one playbook. The panel is opened first (inside the click's gesture);
 * the focus item is written in parallel and the panel reads or watches it.
 */
export async function openPlaybookInSidePanel(playbookId: string): Promise<void> {
  const opening = openSidePanel();
  const focusing = sidePanelFocusItem.setValue({ playbookId, at: Date.now() });
  await Promise.all([opening, focusing]);
}
