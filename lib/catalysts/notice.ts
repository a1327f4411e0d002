/**
 * A reminder notification's text and id, from validated fields only: the ticker, the catalyst's
 * title (clipped), its date in the user's language and time zone, its status in words, and the
 * title of the playbook whose idea it tests. No id reaches the text; the id carries only what a
 * click opens (the playbook), so a notification left in the centre after the worker stopped still
 * opens it.
 */
import type { Catalyst } from '@/lib/contract/catalyst';
import { clipTitle, formatDateTime, formatList, joinSentences, t, type TextKey } from '@/lib/i18n';
import { cachedIntl } from '@/lib/i18n/locale';
import { NOTIFICATIONS } from '@/lib/store/inventory';
import type { DueReminder, ReminderNotice } from './reminders';

const PREFIX = NOTIFICATIONS.reminder.idPrefix;
/** Tickers a summary names before it says "and N more" by its count alone. */
const SUMMARY_TICKERS = 5;

const STATUS_WORDS: Record<Catalyst['status'], TextKey> = {
  confirmed: 'reminders.confirmed',
  estimated: 'reminders.estimated',
  cancelled: 'reminders.cancelled',
};

/** When, in the user's language: an all-day catalyst's calendar day (no zone shift), else date and time. */
export function reminderWhen(catalyst: Pick<Catalyst, 'at' | 'all_day'>): string {
  if (!catalyst.all_day) return formatDateTime(catalyst.at);
  const day = cachedIntl(
    'reminder-day',
    (l) => new Intl.DateTimeFormat(l, { dateStyle: 'full', timeZone: 'UTC' }),
  );
  return day.format(Date.parse(`${catalyst.at}T00:00:00Z`));
}

export interface NoticeText {
  id: string;
  title: string;
  message: string;
}

/** playbook id → title, as the read model cached it. */
export type PlaybookTitles = ReadonlyMap<string, string>;

/** The user's playbook a catalyst belongs to: the first of its `playbook_ids` the user has. */
export function playbookOf(catalyst: Catalyst, titles: PlaybookTitles): string | undefined {
  return catalyst.playbook_ids.find((id) => titles.has(id));
}

const idFor = (playbookId: string | undefined, tail: string) =>
  `${PREFIX}${playbookId ? encodeURIComponent(playbookId) : ''}|${tail}`;

/** The playbook a reminder notification opens, or undefined (a summary over several, or not ours). */
export function playbookOfReminderNotification(notificationId: string): string | undefined {
  if (!notificationId.startsWith(PREFIX)) return undefined;
  const encoded = notificationId.slice(PREFIX.length).split('|')[0] ?? '';
  try {
    return decodeURIComponent(encoded) || undefined;
  } catch {
    return undefined;
  }
}

function singleText({ catalyst, reason }: DueReminder, titles: PlaybookTitles): NoticeText {
  const playbookId = playbookOf(catalyst, titles);
  const name = playbookId ? clipTitle(titles.get(playbookId) ?? '') : '';
  const title = t(reason === 'changed' ? 'reminders.changedTitle' : 'reminders.title', {
    ticker: catalyst.ticker,
  });
  const what = t('reminders.what', {
    what: clipTitle(catalyst.title),
    when: reminderWhen(catalyst),
    status: t(STATUS_WORDS[catalyst.status]),
  });
  const message = joinSentences(
    what,
    name ? t('reminders.playbook', { name }) : undefined,
    t('notifications.disclaimer'),
  );
  return { id: idFor(playbookId, `${encodeURIComponent(catalyst.id)}.${catalyst.sequence}`), title, message };
}

function summaryText(reminders: readonly DueReminder[], titles: PlaybookTitles): NoticeText {
  const tickers = [...new Set(reminders.map((r) => r.catalyst.ticker))];
  const named = tickers.slice(0, SUMMARY_TICKERS);
  const more = tickers.length - named.length;
  const list = formatList(more > 0 ? [...named, t('reminders.more', { count: more })] : named);
  const playbooks = new Set(reminders.map((r) => playbookOf(r.catalyst, titles)));
  const [only] = playbooks;
  return {
    id: idFor(playbooks.size === 1 ? only : undefined, `summary.${Date.now()}`),
    title: t('reminders.summaryTitle'),
    message: joinSentences(t('reminders.summary', { tickers: list }), t('notifications.disclaimer')),
  };
}

export function noticeText(notice: ReminderNotice, titles: PlaybookTitles): NoticeText {
  return notice.kind === 'single'
    ? singleText(notice.reminder, titles)
    : summaryText(notice.reminders, titles);
}
