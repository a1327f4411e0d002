import type { ServiceEvent } from '@/lib/api/schemas';
import { clipTitle, joinSentences, plural, t, type TextKey } from '@/lib/i18n';

// Catalyst reminders clip titles the same way (lib/catalysts sits below this folder).
export { clipTitle, MAX_NOTIFIED_TITLE } from '@/lib/i18n';

/**
 * Notification text from known fields only: a fixed title per event type and, at most, the
 * playbook's title as the validated API returned it, clipped. Nothing else the service sends
 * (event data, ids, free text) ever reaches a notification.
 */
export const NOTIFICATION_TITLES = {
  'backtest.completed': 'notifications.backtestCompleted',
  'execution.started': 'notifications.executionStarted',
  'execution.stopped': 'notifications.executionStopped',
} as const satisfies Partial<Record<ServiceEvent['type'], TextKey>>;

export type NotifiedEventType = keyof typeof NOTIFICATION_TITLES;

export const NOTIFIED_TYPES: ReadonlySet<ServiceEvent['type']> = new Set(
  Object.keys(NOTIFICATION_TITLES) as NotifiedEventType[],
);

export function notificationFor(
  type: ServiceEvent['type'],
  playbookTitle: string | undefined,
): { title: string; message: string } {
  const title = t(
    (NOTIFICATION_TITLES as Partial<Record<ServiceEvent['type'], TextKey>>)[type] ??
      'notifications.playbookEvent',
  );
  const name = playbookTitle === undefined ? '' : clipTitle(playbookTitle);
  return { title, message: name ? t('notifications.named', { name }) : t('notifications.unnamed') };
}

/** A known result line ahead of an event's message: "Return 12.3% vs SPY. “Momentum”. …". */
export function withResult(result: string, message: string): string {
  return joinSentences(t('notifications.sentence', { text: result }), message);
}

/**
 * Notifications are rate-limited across batches: at most `perWindow` in any `windowMs`. What a
 * full window holds back is summed into the next one ("12 playbooks changed"); the badge and the
 * Events tab count every event meanwhile.
 */
export const NOTIFICATION_RATE = { perWindow: 3, windowMs: 60_000 } as const;

/** One notification for several playbooks' events, in place of one each. */
export function summaryNotification(playbooks: number): { title: string; message: string } {
  return { title: t('notifications.summaryTitle'), message: plural('notifications.summary', playbooks) };
}

export interface NotificationGate {
  /** True, and counted, when a notification may be shown at `now` (ms). */
  admit(now: number): boolean;
}

/** A sliding window of the times notifications were shown. */
export function createNotificationGate(
  rate: { perWindow: number; windowMs: number } = NOTIFICATION_RATE,
): NotificationGate {
  const shown: number[] = [];
  return {
    admit(now) {
      while (shown.length > 0 && now - (shown[0] ?? now) >= rate.windowMs) shown.shift();
      if (shown.length >= rate.perWindow) return false;
      shown.push(now);
      return true;
    },
  };
}
