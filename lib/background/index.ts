import { browser } from 'wxt/browser';
import { createHandlerRegistry } from '@/lib/messaging';
import { originOf } from '@/lib/messaging/sender';
import { log } from '@/lib/log';
import { startEvents } from '@/lib/events';
import { handleMenuClick, installContextMenus, menuContextFrom, OPEN_SIDE_PANEL_ITEM } from './contextMenus';
import { forgetPageTickers } from './pageMatches';
import { openSidePanelFor } from './sidePanel';
import { wireErrorOf } from './errors';
import { registerHandlers } from './handlers';
import { recoverInterruptedWrites } from './writes';

/** Wires every listener synchronously, as MV3 requires, so a woken worker misses no event. */
export function startBackground(): void {
  const registry = createHandlerRegistry(
    { extensionId: browser.runtime.id, extensionOrigin: originOf(browser.runtime.getURL('/')) ?? '' },
    { mapError: wireErrorOf },
  );
  registerHandlers(registry);

  // The polyfill answers the sender with whatever the returned promise resolves to.
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  browser.runtime.onMessage.addListener((message, sender) => registry.dispatch(message, sender));
  browser.runtime.onInstalled.addListener(() => {
    installContextMenus().catch((error: unknown) => log.error('menu.install-failed', { error }));
  });
  browser.commands?.onCommand.addListener((command, tab) => {
    if (command === 'open-side-panel') openSidePanelFor(tab);
  });
  browser.tabs.onRemoved.addListener((tabId) => void forgetPageTickers(tabId));
  startEvents();
  recoverInterruptedWrites().catch((error: unknown) => log.error('outbox.recover-failed', { error }));
  browser.contextMenus.onClicked.addListener((info, tab) => {
    if (info.menuItemId === OPEN_SIDE_PANEL_ITEM.id) return openSidePanelFor(tab);
    handleMenuClick(menuContextFrom(info, tab)).catch((error: unknown) =>
      log.error('menu.click-failed', { error }),
    );
  });
}
