/**
 * The worker's catalyst reminders: on the reminder alarm, on a `catalyst.changed`
 * event and when the settings change, read the catalysts of the tickers the user's playbooks
 * track, run the pure rules (./reminders.ts), show at most one notification, save the record of
 * what was shown only once it was, and set the alarm for the next reminder or the end of quiet
 * hours. Checks run one at a time, so two triggers cannot both show the same reminder.
 */
import { browser } from 'wxt/browser';
import { serviceClient } from '@/lib/api/service';
import type { Catalyst } from '@/lib/contract/catalyst';
import type { Playbook } from '@/lib/contract/service';
import { DEFAULT_REMINDER_LEAD, REMINDER_LEADS, type ReminderLead } from '@/lib/contract/wire';
import { log } from '@/lib/log';
import { keyFingerprint } from '@/lib/store/apiKey';
import { ALARMS } from '@/lib/store/inventory';
import { getSettings, isServiceConfigured, type Settings } from '@/lib/store/settings';
import { POPUP_VIEW, readCachedView, snapshotBinding } from '@/lib/store/snapshot';
import { readState, writeState } from '@/lib/store/state';
import { noticeText, type PlaybookTitles } from './notice';
import { planReminders, recordFromStored, recordToStored, type ReminderPlan } from './reminders';

export const REMINDER_ALARM = ALARMS.catalystReminders.name;
/** The record of shown reminders in the state store (reminders.ts StoredRecord: binding, ids, sequences, until). */
export const REMINDER_RECORD_KEY = 'catalysts.reminded';
/** The alarm also fires this often, in case a catalyst appeared that no event announced. */
export const REMINDER_FALLBACK_MINUTES = 60;
/** Chrome runs an alarm no sooner than 30 s after it is set. */
const MIN_ALARM_DELAY_MS = 30_000;
const TICKERS_PER_CALL = 50;
/** Bounds on one check: tickers read, pages per call. */
export const MAX_REMINDER_TICKERS = 200;
const MAX_PAGES_PER_CALL = 5;
const PLAYBOOK_PAGE_SIZE = 50;

export function reminderLeadOf(settings: Pick<Settings, 'reminderLead'>): ReminderLead {
  const lead = settings.reminderLead;
  return lead && (REMINDER_LEADS as readonly string[]).includes(lead) ? lead : DEFAULT_REMINDER_LEAD;
}

/** The user's playbooks from the read model's cache, or one page from the service when none is cached. */
async function userPlaybooks(binding: string): Promise<readonly Playbook[]> {
  const cached = await readCachedView(POPUP_VIEW, binding);
  if (cached && cached.items.length > 0) return cached.items;
  const client = await serviceClient();
  return (await client.listPage<Playbook>('listPlaybooks', { query: {}, pageSize: PLAYBOOK_PAGE_SIZE }))
    .items;
}

/** The tracked tickers, deduplicated and bounded, and each playbook's title. */
function trackedBy(playbooks: readonly Playbook[]): { tickers: string[]; titles: PlaybookTitles } {
  const tickers = new Set<string>();
  const titles = new Map<string, string>();
  for (const playbook of playbooks) {
    titles.set(playbook.id, playbook.title);
    for (const ticker of playbook.tickers ?? []) if (tickers.size < MAX_REMINDER_TICKERS) tickers.add(ticker);
  }
  return { tickers: [...tickers], titles };
}

/** The catalysts of `tickers`, ≤50 per call and a few pages each; only those of the tickers asked for. */
export async function catalystsOf(tickers: readonly string[]): Promise<Catalyst[]> {
  const client = await serviceClient();
  const asked = new Set(tickers);
  const catalysts: Catalyst[] = [];
  for (let start = 0; start < tickers.length; start += TICKERS_PER_CALL) {
    const query = { tickers: tickers.slice(start, start + TICKERS_PER_CALL).join(',') };
    for await (const page of client.paginate<Catalyst>('listCatalysts', {
      query,
      maxPages: MAX_PAGES_PER_CALL,
    }))
      for (const catalyst of page.items) if (asked.has(catalyst.ticker)) catalysts.push(catalyst);
  }
  return catalysts;
}

/** The next check: at `nextCheckAt` (not sooner than Chrome allows), and hourly after that. */
async function scheduleNext(at: number | null, now: number): Promise<void> {
  const period = REMINDER_FALLBACK_MINUTES;
  const when = at === null ? now + period * 60_000 : Math.max(at, now + MIN_ALARM_DELAY_MS);
  await browser.alarms.create(REMINDER_ALARM, { when, periodInMinutes: period });
}

const reasonOf = (notice: NonNullable<ReminderPlan['notice']>) =>
  notice.kind === 'single' ? notice.reminder.reason : 'summary';

async function show(plan: ReminderPlan, titles: PlaybookTitles, binding: string): Promise<void> {
  if (!plan.notice) return;
  const text = noticeText(plan.notice, titles);
  // Firefox has `basic` notifications only, without buttons: the click (switchboard) opens the playbook.
  await browser.notifications.create(text.id, {
    type: 'basic',
    iconUrl: browser.runtime.getURL('/icon/128.png'),
    title: text.title,
    message: text.message,
  });
  // Only now is the reminder shown: a failure above leaves the record as it was, to show it next time.
  await writeState(REMINDER_RECORD_KEY, recordToStored(plan.record, binding));
  log.info('reminders.shown', { kind: plan.notice.kind, reason: reasonOf(plan.notice) });
}

/** One check at `now`: the plan it ran (for tests and the bench), or null when reminders are off or no service is set. */
export async function runReminderCheck(now: number = Date.now()): Promise<ReminderPlan | null> {
  const settings = await getSettings();
  const lead = reminderLeadOf(settings);
  if (!isServiceConfigured(settings) || lead === 'off') {
    await browser.alarms.clear(REMINDER_ALARM);
    return null;
  }
  // The service and key the check reads for: the record of another pair is not this one's. Without
  // a key there is nothing of the user's to read; saving one checks again.
  const fingerprint = await keyFingerprint();
  if (!fingerprint) return null;
  const binding = snapshotBinding(settings.serviceUrl, fingerprint);
  const { tickers, titles } = trackedBy(await userPlaybooks(binding));
  const catalysts = tickers.length > 0 ? await catalystsOf(tickers) : [];
  const plan = planReminders({
    catalysts,
    settings: { lead, quietHours: settings.quietHours ?? null },
    now,
    notified: recordFromStored(await readState(REMINDER_RECORD_KEY), now, binding),
  });
  // A key saved while this check read would have it record under the old pair: the check queued
  // by that save shows what is due, once.
  if ((await keyFingerprint()) !== fingerprint) return null;
  await show(plan, titles, binding);
  await scheduleNext(plan.nextCheckAt, now);
  log.info('reminders.checked', { catalysts: catalysts.length, deferred: plan.deferredUntil !== null });
  return plan;
}

let running: Promise<unknown> = Promise.resolve();

/** Runs a check after any under way, logging (never throwing) a failure; a failed check retries on the next alarm. */
export function checkReminders(now?: number): Promise<ReminderPlan | null> {
  const run = running.then(() => runReminderCheck(now ?? Date.now()));
  running = run.catch(() => undefined);
  return run.catch((error: unknown) => {
    log.warn('reminders.check-failed', { error });
    return null;
  });
}

/** At every worker start: make sure an alarm will check, without checking now. */
export async function ensureReminderAlarm(): Promise<void> {
  if (await browser.alarms.get(REMINDER_ALARM)) return;
  await browser.alarms.create(REMINDER_ALARM, {
    delayInMinutes: 1,
    periodInMinutes: REMINDER_FALLBACK_MINUTES,
  });
}
