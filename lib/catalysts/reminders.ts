/**
 * Which catalyst reminders to show now (CONTRACT.md section 6, "Catalyst reminders"): a pure rule
 * over validated catalysts, the user's setting, quiet hours, the time zone, the clock and the
 * record of what was already shown. No browser API; one pass over the catalysts (the worker's
 * alarm checks 200 in well under 5 ms).
 *
 * The rules:
 * - A reminder is due from 00:00 local time, `lead` days before the catalyst's local day (the day
 *   of an all-day one; the local day of a date-time one), until the catalyst's moment (the end of
 *   an all-day one's day). A passed catalyst is not reminded of.
 * - At most one notification per catalyst and `sequence`: the record maps a catalyst id to the
 *   sequence last shown, and a catalyst whose sequence is not above it is skipped. An entry goes
 *   once that sequence's moment has passed in every time zone, quiet hours and their grace
 *   included (RECORD_MARGIN_MS): the same sequence means the same date, which can then never be
 *   due again, so the record holds only what can still matter and stays small.
 * - A catalyst shown before whose `sequence` grew (moved, confirmed or cancelled) is shown again at
 *   once, whether or not its new date is inside the window: the user was told of the old date.
 * - A cancelled catalyst is shown only as such a change: a cancellation of something the user was
 *   never reminded of is not news.
 * - Two or more due at once make one summary, never a burst.
 * - In quiet hours nothing is shown: the due reminders wait until the hours end and are shown
 *   then, never dropped, even when the catalyst's moment fell inside the quiet hours (it stays
 *   deliverable for QUIET_GRACE_MS after they end, the time an alarm may run late).
 * - `off` shows nothing at all.
 */
import type { Catalyst } from '@/lib/contract/catalyst';
import { dateParts, zoneFor, type LocalDate, type Zone } from './zonedTime';

import {
  DEFAULT_REMINDER_LEAD,
  REMINDER_LEADS,
  type QuietHours,
  type ReminderLead,
} from '@/lib/contract/wire';

export { DEFAULT_REMINDER_LEAD, REMINDER_LEADS };
export type { QuietHours, ReminderLead };
const LEAD_DAYS: Record<Exclude<ReminderLead, 'off'>, number> = {
  'same-day': 0,
  '1-day': 1,
  '3-days': 3,
  '1-week': 7,
};

/** From this many due at once, one summary notification instead of one each. */
export const SUMMARY_FROM = 2;
/** How long after quiet hours end a reminder whose moment fell inside them may still be shown. */
export const QUIET_GRACE_MS = 2 * 3_600_000;
/**
 * The record keeps at most this many catalysts (the oldest entries go first). Entries leave when
 * their catalyst has passed, and one check reads at most 400 catalysts (lib/catalysts/watch.ts:
 * 200 tickers, 50 a call, 5 pages of 20), so only a service listing far more than that reaches it.
 */
export const MAX_RECORD_ENTRIES = 1000;
const MINUTES_PER_DAY = 1440;
const DAY_MS = 86_400_000;
/**
 * How long after a catalyst's moment (the end of its UTC day for an all-day one) its entry is
 * kept: the day ends up to 12 h later west of UTC, quiet hours may hold a reminder up to a day,
 * and QUIET_GRACE_MS follows them.
 */
export const RECORD_MARGIN_MS = 2 * DAY_MS;

export interface ReminderSettings {
  lead: ReminderLead;
  /** Off by default (absent or null). */
  quietHours?: QuietHours | null;
  /**
   * IANA zone, e.g. `Europe/Berlin`; an unknown one reads as UTC. Absent: the browser's own zone,
   * the cheap case (Date's offsets, no Intl formatter to build when the worker wakes).
   */
  timeZone?: string;
}

/** What the record keeps of a shown catalyst. */
export interface NotifiedEntry {
  /** The `sequence` last shown. */
  sequence: number;
  /** Epoch ms from which that sequence can no longer be due anywhere: the entry may go. */
  until: number;
}

/** Catalyst id → what was shown, oldest first. */
export type NotifiedRecord = ReadonlyMap<string, NotifiedEntry>;

export interface DueReminder {
  catalyst: Catalyst;
  /** `reminder`: its window started; `changed`: shown before, and its sequence grew since. */
  reason: 'reminder' | 'changed';
}

export type ReminderNotice =
  { kind: 'single'; reminder: DueReminder } | { kind: 'summary'; reminders: DueReminder[] };

export interface ReminderPlan {
  /** What to show now, or null. */
  notice: ReminderNotice | null;
  /** The record to save once the notice is shown; `notified` itself when there is none (nothing to save). */
  record: NotifiedRecord;
  /** Set when due reminders wait for quiet hours to end: that instant (epoch ms). */
  deferredUntil: number | null;
  /** When a reminder next falls due or quiet hours end, for the next alarm; null when nothing waits. */
  nextCheckAt: number | null;
}

export interface ReminderInput {
  catalysts: readonly Catalyst[];
  settings: ReminderSettings;
  now: number;
  notified: NotifiedRecord;
}

const inQuiet = (minutes: number, q: QuietHours) =>
  q.start < q.end ? minutes >= q.start && minutes < q.end : minutes >= q.start || minutes < q.end;

/** Quiet hours that are set and not empty, with both ends inside a day. */
function activeQuiet(q: QuietHours | null | undefined): QuietHours | null {
  if (!q || q.start === q.end) return null;
  const ok = (m: number) => Number.isInteger(m) && m >= 0 && m < MINUTES_PER_DAY;
  return ok(q.start) && ok(q.end) ? q : null;
}

/** The instant quiet hours holding `ms` end, or null when `ms` is outside them. */
export function quietEnd(ms: number, q: QuietHours, zone: Zone): number | null {
  const w = zone.wallClock(ms);
  if (!inQuiet(w.minutes, q)) return null;
  return zone.instant(w, q.end, w.minutes < q.end ? 0 : 1);
}

interface Clock {
  zone: Zone;
  quiet: QuietHours | null;
  now: number;
}

const midnight = (clock: Clock, date: LocalDate, addDays: number) => clock.zone.instant(date, 0, addDays);

/** When the reminder window opens and when the catalyst has passed. */
function reminderWindow(
  catalyst: Catalyst,
  leadDays: number,
  clock: Clock,
): { opens: number; passes: number } {
  if (catalyst.all_day) {
    const day = dateParts(catalyst.at);
    return { opens: midnight(clock, day, -leadDays), passes: midnight(clock, day, 1) };
  }
  const moment = Date.parse(catalyst.at);
  return { opens: midnight(clock, clock.zone.wallClock(moment), -leadDays), passes: moment };
}

/** Passed, unless its moment fell in quiet hours that ended less than QUIET_GRACE_MS ago (or still hold). */
function hasPassed(passes: number, clock: Clock): boolean {
  if (clock.now < passes) return false;
  const ended = clock.quiet && quietEnd(passes - 1, clock.quiet, clock.zone);
  return !ended || clock.now >= ended + QUIET_GRACE_MS;
}

/** The catalysts by id, keeping the highest sequence when a list repeats one. */
function latestById(catalysts: readonly Catalyst[]): Map<string, Catalyst> {
  const byId = new Map<string, Catalyst>();
  for (const c of catalysts) {
    const seen = byId.get(c.id);
    if (!seen || c.sequence > seen.sequence) byId.set(c.id, c);
  }
  return byId;
}

/** What is due now and when the next one opens. */
function collect(input: ReminderInput, clock: Clock): { due: DueReminder[]; nextOpen: number | null } {
  const leadDays = LEAD_DAYS[input.settings.lead as Exclude<ReminderLead, 'off'>];
  const due: DueReminder[] = [];
  let nextOpen: number | null = null;
  for (const catalyst of latestById(input.catalysts).values()) {
    const shown = input.notified.get(catalyst.id)?.sequence;
    if (shown !== undefined && shown >= catalyst.sequence) continue;
    const changed = shown !== undefined;
    if (catalyst.status === 'cancelled' && !changed) continue;
    const { opens, passes } = reminderWindow(catalyst, leadDays, clock);
    if (hasPassed(passes, clock)) continue;
    if (changed || opens <= clock.now) due.push({ catalyst, reason: changed ? 'changed' : 'reminder' });
    else if (nextOpen === null || opens < nextOpen) nextOpen = opens;
  }
  return { due, nextOpen };
}

/** When an entry for `catalyst` at its sequence may go (see RECORD_MARGIN_MS). */
export function entryUntil(catalyst: Pick<Catalyst, 'at' | 'all_day'>): number {
  const moment = catalyst.all_day ? Date.parse(`${catalyst.at}T00:00:00Z`) + DAY_MS : Date.parse(catalyst.at);
  return moment + RECORD_MARGIN_MS;
}

/** The record without entries that can no longer matter, with the shown catalysts newest last, bounded. */
function recordShown(notified: NotifiedRecord, shown: readonly DueReminder[], now: number): NotifiedRecord {
  const record = new Map<string, NotifiedEntry>();
  for (const [id, entry] of notified) if (entry.until > now) record.set(id, entry);
  for (const { catalyst } of shown) {
    record.delete(catalyst.id);
    record.set(catalyst.id, { sequence: catalyst.sequence, until: entryUntil(catalyst) });
  }
  for (const id of record.keys()) {
    if (record.size <= MAX_RECORD_ENTRIES) break;
    record.delete(id);
  }
  return record;
}

/**
 * The record as stored: three columns, oldest first (an object keyed by id would reorder ids that
 * look like numbers, and the bound drops the oldest). Columns of strings and numbers are what
 * IndexedDB clones fastest: the worker reads the record on every check.
 */
export interface StoredRecord {
  /**
   * The service URL and key fingerprint it was shown for (lib/store/snapshot.ts snapshotBinding):
   * catalyst ids are the service's, so another service or account may reuse them for other events.
   */
  binding: string;
  ids: string[];
  sequences: number[];
  until: number[];
}

export function recordToStored(record: NotifiedRecord, binding: string): StoredRecord {
  const stored: StoredRecord = { binding, ids: [], sequences: [], until: [] };
  for (const [id, entry] of record) {
    stored.ids.push(id);
    stored.sequences.push(entry.sequence);
    stored.until.push(entry.until);
  }
  return stored;
}

const isEntry = (id: unknown, sequence: unknown, until: unknown): boolean =>
  typeof id === 'string' &&
  id.length > 0 &&
  id.length <= 200 &&
  Number.isSafeInteger(sequence) &&
  typeof until === 'number' &&
  Number.isFinite(until);

/**
 * Reads what storage gives back as untrusted: a record saved for another `binding` reads as empty,
 * an entry that is not an id, an integer sequence and a finite instant is skipped, one
 * that can no longer matter at `now` too, and at most MAX_RECORD_ENTRIES (the newest) are kept.
 * Anything else reads as an empty record.
 */
export function recordFromStored(stored: unknown, now: number, binding: string): Map<string, NotifiedEntry> {
  const record = new Map<string, NotifiedEntry>();
  if (typeof stored !== 'object' || stored === null) return record;
  const columns = stored as Partial<Record<keyof StoredRecord, unknown>>;
  // A record saved before it carried its binding was the current pair's: kept, so an update does
  // not show again every reminder already shown.
  if (columns.binding !== undefined && columns.binding !== binding) return record;
  const ids: unknown = columns.ids;
  const sequences: unknown = columns.sequences;
  const until: unknown = columns.until;
  if (!Array.isArray(ids) || !Array.isArray(sequences) || !Array.isArray(until)) return record;
  const count = Math.min(ids.length, sequences.length, until.length);
  for (let i = Math.max(0, count - MAX_RECORD_ENTRIES); i < count; i++) {
    const id: unknown = ids[i];
    const sequence: unknown = sequences[i];
    const end: unknown = until[i];
    if (isEntry(id, sequence, end) && (end as number) > now)
      record.set(id as string, { sequence: sequence as number, until: end as number });
  }
  return record;
}

const earliest = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));

export function planReminders(input: ReminderInput): ReminderPlan {
  const idle: ReminderPlan = {
    notice: null,
    record: input.notified,
    deferredUntil: null,
    nextCheckAt: null,
  };
  if (input.settings.lead === 'off') return idle;
  const clock: Clock = {
    zone: zoneFor(input.settings.timeZone),
    quiet: activeQuiet(input.settings.quietHours),
    now: input.now,
  };
  const { due, nextOpen } = collect(input, clock);
  if (!due.length) return { ...idle, nextCheckAt: nextOpen };
  const quietUntil = clock.quiet && quietEnd(input.now, clock.quiet, clock.zone);
  if (quietUntil) return { ...idle, deferredUntil: quietUntil, nextCheckAt: earliest(nextOpen, quietUntil) };
  const notice: ReminderNotice =
    due.length >= SUMMARY_FROM ? { kind: 'summary', reminders: due } : { kind: 'single', reminder: due[0] };
  return {
    notice,
    record: recordShown(input.notified, due, input.now),
    deferredUntil: null,
    nextCheckAt: nextOpen,
  };
}
