import { browser } from 'wxt/browser';
import { createHandlerRegistry } from '@/lib/messaging';
import { originOf } from '@/lib/messaging/sender';
import { log } from '@/lib/log';
import { handleMenuClick, installContextMenus, menuContextFrom } from './contextMenus';
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
  recoverInterruptedWrites().catch((error: unknown) => log.error('outbox.recover-failed', { error }));
  browser.contextMenus.onClicked.addListener((info, tab) => {
    handleMenuClick(menuContextFrom(info, tab)).catch((error: unknown) =>
      log.error('menu.click-failed', { error }),
    );
  });
}
