import { log } from '@/lib/log';
import type { HandlerRegistry } from '@/lib/messaging';
import { removeApiKey, storeApiKey } from '@/lib/store/apiKey';
import { saveSettings } from '@/lib/store/settings';
import { clearUnread, eventFeed, pollEvents, schedulePolling } from '@/lib/events';
import { registerPageMatchHandlers } from './pageMatches';
import { clearPopupSnapshot } from '@/lib/store/snapshot';
import { registerReadHandlers, warmPopupSnapshot } from './reads';
import { registerSiteHandlers } from './sites';
import { forgetService, readCache } from '@/lib/api/service';
import { registerWriteHandlers } from './writes';
import { readAppState } from './state';

/** Every message the service worker answers, in one place. */
export function registerHandlers(registry: HandlerRegistry): void {
  registry.register('getState', () => readAppState());

  registry.register('saveSettings', async (request) => {
    const change = await saveSettings(request);
    log.info('settings.saved', { serviceChanged: change.serviceChanged });
    if (change.serviceChanged) {
      await forgetService();
      warmPopupSnapshot();
    }
    // The alarm keeps its old period until it is created again; this is a no-op when unchanged.
    await schedulePolling(change.settings.pollMinutes);
    return readAppState();
  });

  registry.register('saveApiKey', async ({ key }) => {
    const state = await storeApiKey(key);
    // Reads cached under another key (or none) must not show for this one.
    await Promise.all([readCache.clear(), clearPopupSnapshot()]);
    log.info('key.saved', { last4: state.last4 });
    warmPopupSnapshot();
    return state;
  });

  registry.register('removeApiKey', async () => {
    log.info('key.removed');
    // Removed first: a read started before the clear is then dropped, never saved for the old key.
    const removed = await removeApiKey();
    await Promise.all([readCache.clear(), clearPopupSnapshot()]);
    warmPopupSnapshot();
    return removed;
  });

  registerReadHandlers(registry);
  registerWriteHandlers(registry);
  registerSiteHandlers(registry);

  // The Events tab.
  registry.register('getEventFeed', () => eventFeed());
  registry.register('clearEventBadge', () => clearUnread());
  registry.register('pollEventsNow', () => pollEvents());
  registerPageMatchHandlers(registry);
}
