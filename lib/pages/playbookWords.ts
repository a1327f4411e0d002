/**
 * A playbook's words, one set for every page: its status and its visibility in the UI language, and
 * its backtests' statuses.
 */
import type { Playbook } from '@/lib/api/schemas';
import type { BacktestStatus } from '@/lib/contract/backtest';
import type { Visibility } from '@/lib/contract/visibility';
import { t, type TextKey } from '@/lib/i18n';

/** One set of visibility words for every page: the popup's, capitalised as a value ("Öffentlich"). */
const VISIBILITY_WORDS: Record<Visibility, TextKey> = {
  private: 'popup.visibility.private',
  unlisted: 'popup.visibility.unlisted',
  public: 'popup.visibility.public',
};

/** A playbook's visibility in the UI language, the same words in the popup, the side panel and its edit form. */
export function visibilityText(visibility: Visibility): string {
  return t(VISIBILITY_WORDS[visibility]);
}

/** One word per status, shared by the popup's rows and the side panel: the compiler checks every status has one. */
const STATUS_TEXT: Record<Playbook['status'], TextKey> = {
  draft: 'popup.playbookStatus.draft',
  active: 'popup.playbookStatus.active',
  paused: 'popup.playbookStatus.paused',
  archived: 'popup.playbookStatus.archived',
};

/** The playbook's status as a word of the UI language; a status this build does not know, as sent. */
export function playbookStatusText(status: string): string {
  const key = Object.hasOwn(STATUS_TEXT, status) ? STATUS_TEXT[status as Playbook['status']] : undefined;
  return key ? t(key) : status;
}

/** One word per backtest status, capitalised as a value like a playbook's ("Completed", "Läuft"). */
const BACKTEST_STATUS_TEXT: Record<BacktestStatus, TextKey> = {
  queued: 'backtests.status.queued',
  running: 'backtests.status.running',
  completed: 'backtests.status.completed',
  failed: 'backtests.status.failed',
};

/** Whether this build has a word for a backtest's status (the service may send a newer one). */
export function isKnownBacktestStatus(status: string): status is BacktestStatus {
  return Object.hasOwn(BACKTEST_STATUS_TEXT, status);
}

/**
 * A backtest's status as a word of the UI language; undefined for a status this build does not
 * know, which a page shows as sent, isolated in its own direction (components/ServiceText.tsx).
 */
export function backtestStatusText(status: string): string | undefined {
  return isKnownBacktestStatus(status) ? t(BACKTEST_STATUS_TEXT[status]) : undefined;
}

/**
 * A plan as the service names it ("pro", "team"): the service sends an id, not a display name
 * (CONTRACT.md), so a lower-case id is shown as a name, its first letter capitalised in the UI
 * language ("Pro"); anything else is shown as sent.
 */
export function planName(plan: string): string {
  if (!/^[a-z][a-z0-9_-]*$/.test(plan)) return plan;
  return plan.charAt(0).toLocaleUpperCase() + plan.slice(1);
}
