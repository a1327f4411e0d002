import { browser } from 'wxt/browser';

/** Opens the side panel (Chrome) or the sidebar (Firefox); must run inside a user gesture. */
export async function openSidePanel(): Promise<void> {
  const api = browser as unknown as {
    sidePanel?: { open(options: { windowId: number }): Promise<void> };
    sidebarAction?: { open(): Promise<void> };
  };
  if (api.sidebarAction) {
    await api.sidebarAction.open();
    return;
  }
  if (api.sidePanel) {
    const current = await browser.windows.getCurrent();
    if (typeof current.id === 'number') await api.sidePanel.open({ windowId: current.id });
  }
}
