import { log } from '@/lib/log';
import { handlersOf, registerTable, type HandlerRegistry, type Handlers } from '@/lib/messaging';
import { removeApiKey, storeApiKey } from '@/lib/store/apiKey';
import { saveSettings } from '@/lib/store/settings';
import { checkReminders } from '@/lib/catalysts/watch';
import { clearUnread, eventFeed, pollEvents, schedulePolling } from '@/lib/events';
import { registerPageMatchHandlers } from './pageMatches';
import { clearPopupSnapshot } from '@/lib/store/snapshot';
import { registerBacktestHandlers } from './backtests';
import { registerCatalystHandlers } from './catalysts';
import { registerReadHandlers } from './reads';
import { warmPopupSnapshot } from './readModel';
import { registerSiteHandlers } from './sites';
import { forgetService } from '@/lib/api/service';
import { registerWriteHandlers } from './writes';
import { readAppState } from './state';

/**
 * Every message the service worker answers, in one table typed over the message map: a message
 * without a handler does not compile. The domains that register their own list the names here.
 */
// eslint-disable-next-line max-lines-per-function -- one table typed over the message map, so a message without a handler does not compile
export function handlerTable(): Handlers {
  return {
    getState: () => readAppState(),

    saveSettings: async (request) => {
      const change = await saveSettings(request);
      log.info('settings.saved', { serviceChanged: change.serviceChanged });
      if (change.serviceChanged) {
        await forgetService();
        warmPopupSnapshot();
      }
      // The alarm keeps its old period until it is created again; this is a no-op when unchanged.
      await schedulePolling(change.settings.pollMinutes);
      // A new lead or quiet hours move the next reminder: check (and reschedule) now, in the background.
      void checkReminders();
      return readAppState();
    },

    saveApiKey: async ({ key, apiUrl }) => {
      const state = await storeApiKey(key, apiUrl);
      // Reads cached under another key (or none) must not show for this one.
      await clearPopupSnapshot();
      log.info('key.saved');
      warmPopupSnapshot();
      // Another key, other playbooks: their reminders are checked now, not at the next alarm.
      void checkReminders();
      return state;
    },

    removeApiKey: async () => {
      log.info('key.removed');
      // Removed first: a read started before the clear is then dropped, never saved for the old key.
      const removed = await removeApiKey();
      await clearPopupSnapshot();
      warmPopupSnapshot();
      return removed;
    },

    // The Events tab.
    getEventFeed: () => eventFeed(),
    clearEventBadge: () => clearUnread(),
    pollEventsNow: () => pollEvents(),

    ...handlersOf(
      [
        'readView',
        'listPlaybooks',
        'getPlaybook',
        'readPlaybook',
        'refreshPlaybooks',
        'openPopup',
        'getOverview',
        'testConnection',
        'runDiscovery',
        'getDiscoveryReport',
        'mcpListTools',
        'mcpCallTool',
      ],
      registerReadHandlers,
    ),
    ...handlersOf(
      [
        'submitPageDraft',
        'requestWrite',
        'getPendingWrite',
        'confirmWrite',
        'retryWrite',
        'reviewWrite',
        'discardDraft',
        'getDraft',
        'listOutbox',
      ],
      registerWriteHandlers,
    ),
    ...handlersOf(['listBacktests', 'getBacktest', 'latestBacktests'], registerBacktestHandlers),
    ...handlersOf(
      ['listPlaybookCatalysts', 'getPlaybookPerformance', 'catalystsWithinWeek'],
      registerCatalystHandlers,
    ),
    ...handlersOf(['listSites', 'addSite', 'removeSite'], registerSiteHandlers),
    ...handlersOf(['countPageMatches', 'getPageMatches'], registerPageMatchHandlers),
  };
}

export function registerHandlers(registry: HandlerRegistry): void {
  registerTable(registry, handlerTable());
}
