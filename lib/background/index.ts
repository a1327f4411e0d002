import { browser, type Browser } from 'wxt/browser';
import {
  acceptEventsPort,
  acceptOutboxPort,
  dropEventsPort,
  onPollAlarm,
  POLL_ALARM,
  targetOfEventNotification,
  type EventNotificationTarget,
  startEvents,
} from '@/lib/events';
import { EVENTS_PORT, OUTBOX_PORT } from '@/lib/events/port';
import { log } from '@/lib/log';
import { playbookOfReminderNotification } from '@/lib/catalysts/notice';
import { checkReminders, ensureReminderAlarm, REMINDER_ALARM } from '@/lib/catalysts/watch';
import { createHandlerRegistry } from '@/lib/messaging';
import { classifyPort, originOf } from '@/lib/messaging/sender';
import { openFirstRunSetup, playbookPageUrl } from '@/lib/pages/navigation';
import { NOTIFICATIONS } from '@/lib/store/inventory';
import { handleMenuClick, installContextMenus, menuContextFrom, OPEN_SIDE_PANEL_ITEM } from './contextMenus';
import { wireErrorOf } from './errors';
import { registerHandlers } from './handlers';
import { openSidePanelFor } from './sidePanel';
import {
  draftOfRetryAlarm,
  playbookOfWriteNotification,
  recoverInterruptedWrites,
  resendDeferredWrite,
} from './writes';

/**
 * The switchboard: the only module that adds the worker's browser listeners. Each listener only
 * routes, by alarm name, notification-id prefix or port name, to the domain that handles it.
 */

/** Alarms by name: the poll alarm, and one write-retry alarm per deferred draft (lib/store/inventory ALARMS). */
export function routeAlarm(alarm: Pick<Browser.alarms.Alarm, 'name'>): void {
  if (alarm.name === POLL_ALARM) return onPollAlarm();
  if (alarm.name === REMINDER_ALARM) return void checkReminders();
  const draftId = draftOfRetryAlarm(alarm.name);
  if (draftId) {
    resendDeferredWrite(draftId).catch((error: unknown) => log.warn('write.resend-failed', { error }));
    return;
  }
  log.warn('alarm.unknown', { length: alarm.name.length });
}

/** What a click on each kind of notification opens; the compiler checks every prefix has a route. */
const NOTIFICATION_ROUTES: Record<
  keyof typeof NOTIFICATIONS,
  (notificationId: string) => EventNotificationTarget | undefined
> = {
  event: targetOfEventNotification,
  writtenPlaybook: (notificationId) => {
    const playbookId = playbookOfWriteNotification(notificationId);
    return playbookId ? { playbookId } : undefined;
  },
  reminder: (notificationId) => {
    const playbookId = playbookOfReminderNotification(notificationId);
    return playbookId ? { playbookId } : undefined;
  },
  write: () => undefined,
};

/** A notification click opens the playbook (at the backtest) its id names, in a tab, and clears the notification. */
export function routeNotificationClick(notificationId: string): void {
  const kind = (Object.keys(NOTIFICATIONS) as (keyof typeof NOTIFICATIONS)[]).find((name) =>
    notificationId.startsWith(NOTIFICATIONS[name].idPrefix),
  );
  const target = kind ? NOTIFICATION_ROUTES[kind](notificationId) : undefined;
  if (!target) return;
  browser.tabs
    .create({ url: playbookPageUrl(target.playbookId, target.backtestId) })
    .then(() => browser.notifications.clear(notificationId))
    .catch((error: unknown) => log.warn('notify.open-failed', { error }));
}

/**
 * Ports by name; only an extension page (by the sender classifier) may hold one. Pages ping now
 * and then: port traffic keeps the worker (and so the stream) alive.
 */
export function routePort(port: Browser.runtime.Port): void {
  if (port.name !== EVENTS_PORT && port.name !== OUTBOX_PORT) return;
  const sender = classifyPort(port);
  if (sender.kind !== 'extension-page') {
    log.warn('events.port-refused', { sender: sender.kind });
    port.disconnect();
    return;
  }
  port.onMessage.addListener(() => undefined);
  if (port.name === OUTBOX_PORT) {
    acceptOutboxPort(port);
    return;
  }
  acceptEventsPort(port);
  port.onDisconnect.addListener(() => dropEventsPort(port));
}

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
  browser.runtime.onInstalled.addListener((details) => {
    installContextMenus().catch((error: unknown) => log.error('menu.install-failed', { error }));
    openFirstRunSetup(details.reason).catch((error: unknown) => log.error('setup.open-failed', { error }));
  });
  browser.runtime.onConnect.addListener(routePort);
  browser.alarms.onAlarm.addListener(routeAlarm);
  browser.notifications?.onClicked.addListener(routeNotificationClick);
  browser.commands?.onCommand.addListener((command, tab) => {
    if (command === 'open-side-panel') openSidePanelFor(tab);
  });
  browser.contextMenus.onClicked.addListener((info, tab) => {
    if (info.menuItemId === OPEN_SIDE_PANEL_ITEM.id) return openSidePanelFor(tab);
    handleMenuClick(menuContextFrom(info, tab)).catch((error: unknown) =>
      log.error('menu.click-failed', { error }),
    );
  });

  startEvents();
  ensureReminderAlarm().catch((error: unknown) => log.warn('reminders.schedule-failed', { error }));
  recoverInterruptedWrites().catch((error: unknown) => log.error('outbox.recover-failed', { error }));
}
