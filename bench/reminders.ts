/**
 * The reminder check (lib/catalysts/reminders.ts): what the worker's alarm spends on
 * 200 catalysts, in Node's V8 (the worker's engine). The first check of a process is the cold
 * worker's (no zone named: the browser's own, from Date); a named zone builds its Intl formatter
 * once per worker life; the warm figure is every later alarm's.
 */
import {
  entryUntil,
  MAX_RECORD_ENTRIES,
  planReminders,
  recordFromStored,
  recordToStored,
  type NotifiedRecord,
  type ReminderSettings,
  type StoredRecord,
} from '@/lib/catalysts/reminders';
import { catalystSchema, type Catalyst } from '@/lib/contract/catalyst';
import { sameValue } from '@/lib/store/sameValue';
import { spread, type Spread } from './stats';

export interface ReminderFigures {
  catalysts: number;
  /** The first check in this process, in the browser's own zone (no zone named: Date's offsets). */
  firstCheckMs: number;
  /** Then the first check in a named zone, its Intl formatter built inside it. */
  firstNamedZoneCheckMs: number;
  warm: Spread;
  /**
   * The worker's CPU per alarm (lib/catalysts/watch.ts) without its I/O: the stored record read
   * back (a structured clone, as IndexedDB returns it), the rules, and when something was shown the
   * record to store (its clone, and writeState's read-back and comparison). The network read and
   * the IndexedDB round trips wait, they do not compute. Each check here gets the record the one
   * before it saved, 15 minutes apart over two weeks: what the alarms pay, most showing nothing.
   */
  workerCheck: Spread;
  /** How many of those checks showed something (and so wrote the record). */
  workerChecksShowing: number;
  /**
   * The worst case: the record at its bound (MAX_RECORD_ENTRIES entries, none yet due to go) and
   * reminders shown on every check, so every check writes it.
   */
  workerCheckAtBound: Spread;
  recordBound: number;
  /** The target for the alarm's check. */
  budgetMs: number;
}

const DAY_MS = 86_400_000;

/** 200 catalysts over six weeks: half all-day, half date-times, some cancelled, some moved since shown. */
function catalysts(base: number, count: number): Catalyst[] {
  return Array.from({ length: count }, (_, i) =>
    catalystSchema.parse({
      id: `cat_${i}`,
      ticker: ['NVDA', 'AMD', 'LLY', 'NEE', 'CAT'][i % 5],
      kind: 'earnings',
      title: `Catalyst ${i}`,
      all_day: i % 2 === 0,
      at:
        i % 2 === 0
          ? new Date(base + (i % 42) * DAY_MS).toISOString().slice(0, 10)
          : new Date(base + i * 5 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      status: i % 7 === 0 ? 'cancelled' : i % 3 === 0 ? 'estimated' : 'confirmed',
      playbook_ids: ['pb_bench'],
      sequence: 1 + (i % 3),
      updated_at: new Date(base).toISOString(),
    }),
  );
}

/** The service and key the record is bound to, as the worker's (lib/store/snapshot.ts snapshotBinding). */
const BINDING = 'https://investing-agent.example|0123456789abcdef';

/** One alarm's CPU: read the stored record, plan, and write the record back when something was shown. */
function workerCheck(
  list: readonly Catalyst[],
  settings: ReminderSettings,
  now: number,
  stored: StoredRecord,
): { ms: number; stored: StoredRecord; shown: boolean } {
  const t0 = performance.now();
  const notified: NotifiedRecord = recordFromStored(structuredClone(stored), now, BINDING);
  const plan = planReminders({ catalysts: list, settings, now, notified });
  let next = stored;
  if (plan.notice) {
    next = structuredClone(recordToStored(plan.record, BINDING));
    sameValue(structuredClone(stored), next);
  }
  return { ms: performance.now() - t0, stored: next, shown: plan.notice !== null };
}

/** `runs` alarms 15 minutes apart, each reading the record the one before saved. */
function carriedChecks(list: readonly Catalyst[], settings: ReminderSettings, base: number, runs: number) {
  let stored = recordToStored(new Map(), BINDING);
  let showing = 0;
  const samples = Array.from({ length: runs * 7 }, (_, i) => {
    const check = workerCheck(list, settings, base + i * 15 * 60_000, stored);
    stored = check.stored;
    if (check.shown) showing += 1;
    return check.ms;
  });
  return { samples, showing };
}

export function benchReminders(runs = 200, count = 200): ReminderFigures {
  const base = Date.parse('2026-03-04T08:00:00Z');
  const list = catalysts(base, count);
  const notified: NotifiedRecord = new Map(
    list.filter((_, i) => i % 4 === 0).map((c) => [c.id, { sequence: 1, until: entryUntil(c) }]),
  );
  const settings: ReminderSettings = { lead: '3-days', quietHours: { start: 22 * 60, end: 7 * 60 } };
  const check = (now: number, timeZone?: string) => {
    const t0 = performance.now();
    planReminders({ catalysts: list, settings: { ...settings, timeZone }, now, notified });
    return performance.now() - t0;
  };
  const firstCheckMs = check(base);
  const firstNamedZoneCheckMs = check(base, 'Pacific/Chatham');
  const samples = Array.from({ length: runs }, (_, i) => check(base + (i + 1) * 15 * 60_000));
  const carried = carriedChecks(list, settings, base, runs);
  const stored = recordToStored(
    new Map(
      Array.from({ length: MAX_RECORD_ENTRIES }, (_, i) => [
        `cat_old_${i}`,
        { sequence: 1, until: base + 400 * DAY_MS },
      ]),
    ),
    BINDING,
  );
  const atBound = Array.from(
    { length: runs },
    (_, i) => workerCheck(list, settings, base + (i + 1) * 15 * 60_000, stored).ms,
  );
  return {
    catalysts: count,
    firstCheckMs,
    firstNamedZoneCheckMs,
    warm: spread(samples),
    workerCheck: spread(carried.samples),
    workerChecksShowing: carried.showing,
    workerCheckAtBound: spread(atBound),
    recordBound: MAX_RECORD_ENTRIES,
    budgetMs: 5,
  };
}
