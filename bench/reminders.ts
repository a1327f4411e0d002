/**
 * The reminder check of issue 32 (lib/catalysts/reminders.ts): what the worker's alarm spends on
 * 200 catalysts, in Node's V8 (the worker's engine). The first check of a process is the cold
 * worker's (no zone named: the browser's own, from Date); a named zone builds its Intl formatter
 * once per worker life; the warm figure is every later alarm's.
 */
import {
  MAX_RECORD_ENTRIES,
  planReminders,
  recordFromStored,
  recordToStored,
  type ReminderSettings,
} from '@/lib/catalysts/reminders';
import { catalystSchema, type Catalyst } from '@/lib/contract/catalyst';
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
   * back at its bound (MAX_RECORD_ENTRIES entries, as IndexedDB returns it), the rules, and the
   * record to store. The network read and the IndexedDB round trips wait, they do not compute.
   */
  workerCheck: Spread;
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

export function benchReminders(runs = 200, count = 200): ReminderFigures {
  const base = Date.parse('2026-03-04T08:00:00Z');
  const list = catalysts(base, count);
  const notified = new Map(list.filter((_, i) => i % 4 === 0).map((c) => [c.id, 1]));
  const settings: ReminderSettings = { lead: '3-days', quietHours: { start: 22 * 60, end: 7 * 60 } };
  const check = (now: number, timeZone?: string) => {
    const t0 = performance.now();
    planReminders({ catalysts: list, settings: { ...settings, timeZone }, now, notified });
    return performance.now() - t0;
  };
  const firstCheckMs = check(base);
  const firstNamedZoneCheckMs = check(base, 'Pacific/Chatham');
  const samples = Array.from({ length: runs }, (_, i) => check(base + (i + 1) * 15 * 60_000));
  const stored = recordToStored(
    new Map(Array.from({ length: MAX_RECORD_ENTRIES }, (_, i) => [`cat_old_${i}`, 1] as [string, number])),
  );
  const workerCheck = (now: number) => {
    const t0 = performance.now();
    const record = recordFromStored(structuredClone(stored));
    const plan = planReminders({ catalysts: list, settings, now, notified: record });
    structuredClone(recordToStored(plan.record));
    return performance.now() - t0;
  };
  const workerSamples = Array.from({ length: runs }, (_, i) => workerCheck(base + (i + 1) * 15 * 60_000));
  return {
    catalysts: count,
    firstCheckMs,
    firstNamedZoneCheckMs,
    warm: spread(samples),
    workerCheck: spread(workerSamples),
    budgetMs: 5,
  };
}
