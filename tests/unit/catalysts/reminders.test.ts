import { describe, expect, it } from 'vitest';
import { catalystSchema, type Catalyst } from '@/lib/contract/catalyst';
import {
  entryUntil,
  MAX_RECORD_ENTRIES,
  planReminders,
  QUIET_GRACE_MS,
  RECORD_MARGIN_MS,
  recordFromStored,
  recordToStored,
  type NotifiedRecord,
  type ReminderInput,
  type ReminderSettings,
} from '@/lib/catalysts/reminders';
import { zoneFor } from '@/lib/catalysts/zonedTime';

const BERLIN = 'Europe/Berlin';
const at = (iso: string) => Date.parse(iso);

const catalyst = (overrides: Partial<Catalyst> = {}): Catalyst =>
  catalystSchema.parse({
    id: 'cat_amd',
    ticker: 'AMD',
    kind: 'earnings',
    title: 'AMD quarterly earnings',
    at: '2026-03-05',
    all_day: true,
    status: 'estimated',
    playbook_ids: ['pb_1'],
    sequence: 1,
    updated_at: '2026-03-01T00:00:00Z',
    ...overrides,
  });

const settings = (overrides: Partial<ReminderSettings> = {}): ReminderSettings => ({
  lead: '1-day',
  timeZone: BERLIN,
  quietHours: null,
  ...overrides,
});

/** The service URL and key fingerprint the record is bound to (lib/store/snapshot.ts snapshotBinding). */
const BINDING = 'https://investing-agent.example|0123456789abcdef';

function plan(partial: Partial<ReminderInput> & { now: number }) {
  return planReminders({ catalysts: [catalyst()], settings: settings(), notified: new Map(), ...partial });
}

/** The record as the worker stores it (JSON in storage) and reads it back after a restart at `now`. */
const restart = (record: NotifiedRecord, now: number): NotifiedRecord =>
  recordFromStored(JSON.parse(JSON.stringify(recordToStored(record, BINDING))), now, BINDING);

/** A record of catalysts shown at a sequence, whose entries stay for years. */
const shownAt = (...entries: [string, number][]): NotifiedRecord =>
  new Map(entries.map(([id, sequence]) => [id, { sequence, until: at('2030-01-01T00:00:00Z') }]));

/** Catalyst id → sequence shown. */
const sequences = (record: NotifiedRecord) => new Map([...record].map(([id, entry]) => [id, entry.sequence]));

const shownIds = (p: ReturnType<typeof planReminders>) =>
  p.notice === null
    ? []
    : p.notice.kind === 'single'
      ? [p.notice.reminder.catalyst.id]
      : p.notice.reminders.map((r) => r.catalyst.id);

describe('once per catalyst and sequence', () => {
  it('shows a reminder once, not again on the next check nor after a restart; again after a move', () => {
    const now = at('2026-03-04T08:00:00Z');
    const first = plan({ now });
    expect(first.notice).toEqual({ kind: 'single', reminder: { catalyst: catalyst(), reason: 'reminder' } });
    expect(sequences(first.record)).toEqual(new Map([['cat_amd', 1]]));
    expect(plan({ now: now + 60_000, notified: first.record }).notice).toBeNull();
    expect(
      plan({ now: now + 3_600_000, notified: restart(first.record, now + 3_600_000) }).notice,
    ).toBeNull();
    const moved = catalyst({ sequence: 2, at: '2026-03-06', status: 'confirmed' });
    const afterMove = plan({
      now: now + 7_200_000,
      catalysts: [moved],
      notified: restart(first.record, now + 7_200_000),
    });
    expect(afterMove.notice).toEqual({ kind: 'single', reminder: { catalyst: moved, reason: 'changed' } });
    expect(afterMove.record.get('cat_amd')?.sequence).toBe(2);
    expect(plan({ now: now + 7_260_000, catalysts: [moved], notified: afterMove.record }).notice).toBeNull();
  });

  it('a stale list with a lower sequence than the one shown shows nothing', () => {
    const notified = shownAt(['cat_amd', 3]);
    expect(plan({ now: at('2026-03-04T08:00:00Z'), notified }).notice).toBeNull();
  });

  it('a list that repeats a catalyst shows it once, at its highest sequence', () => {
    const p = plan({
      now: at('2026-03-04T08:00:00Z'),
      catalysts: [catalyst(), catalyst({ sequence: 2 }), catalyst()],
    });
    expect(p.notice).toMatchObject({ kind: 'single', reminder: { catalyst: { sequence: 2 } } });
  });

  it('a move shown before is told at once, even to a date outside the window', () => {
    const later = catalyst({ sequence: 2, at: '2026-05-05' });
    const p = plan({
      now: at('2026-03-04T08:00:00Z'),
      catalysts: [later],
      notified: shownAt(['cat_amd', 1]),
    });
    expect(p.notice).toMatchObject({ kind: 'single', reminder: { reason: 'changed' } });
  });

  it('a cancellation is told only to those reminded before', () => {
    const cancelled = catalyst({ sequence: 2, status: 'cancelled' });
    const now = at('2026-03-04T08:00:00Z');
    expect(plan({ now, catalysts: [cancelled] }).notice).toBeNull();
    expect(plan({ now, catalysts: [cancelled] }).record.size).toBe(0);
    const told = plan({ now, catalysts: [cancelled], notified: shownAt(['cat_amd', 1]) });
    expect(told.notice).toMatchObject({ kind: 'single', reminder: { reason: 'changed' } });
  });
});

describe('the stored record', () => {
  const now = at('2026-03-04T08:00:00Z');
  const later = at('2026-04-01T00:00:00Z');

  it('keeps its order (ids that look like numbers too) and skips what is not an entry', () => {
    const record = new Map([
      ['b', { sequence: 1, until: later }],
      ['10', { sequence: 2, until: later }],
      ['2', { sequence: 3, until: later }],
    ]);
    expect([...restart(record, now)]).toEqual([...record]);
    const stored = {
      ids: ['a', 'b', '', 7, 'd', 'e', 'f'],
      sequences: [1, '2', 1, 1, 1.5, 1, 4],
      until: [later, later, later, later, later, Infinity, later],
    };
    expect([...sequences(recordFromStored(stored, now, BINDING))]).toEqual([
      ['a', 1],
      ['f', 4],
    ]);
    expect(recordFromStored([['a', 1]], now, BINDING).size).toBe(0);
    expect(recordFromStored({ ids: 'a', sequences: [1], until: [later] }, now, BINDING).size).toBe(0);
  });

  it('is bounded: the newest MAX_RECORD_ENTRIES are kept, when read and when grown', () => {
    const ids = Array.from({ length: MAX_RECORD_ENTRIES + 5 }, (_, i) => `c${i}`);
    const read = recordFromStored(
      { ids, sequences: ids.map(() => 1), until: ids.map(() => later) },
      now,
      BINDING,
    );
    expect(read.size).toBe(MAX_RECORD_ENTRIES);
    expect(read.has('c0')).toBe(false);
    const grown = plan({ now, notified: read }).record;
    expect(grown.size).toBe(MAX_RECORD_ENTRIES);
    expect([...grown.keys()].at(-1)).toBe('cat_amd');
    expect(grown.has('c5')).toBe(false);
  });

  it('is bound to the service and key it was shown for: another binding reads a fresh record', () => {
    const record = shownAt(['cat_amd', 1]);
    const stored = JSON.parse(JSON.stringify(recordToStored(record, BINDING))) as unknown;
    expect([...sequences(recordFromStored(stored, now, BINDING))]).toEqual([['cat_amd', 1]]);
    expect(recordFromStored(stored, now, 'https://other.example|0123456789abcdef').size).toBe(0);
    expect(recordFromStored(stored, now, `${BINDING.split('|')[0]}|fedcba9876543210`).size).toBe(0);
    // Another service whose catalyst has the same id and sequence is reminded of it.
    const elsewhere = plan({ now, notified: recordFromStored(stored, now, 'https://other.example|no-key') });
    expect(shownIds(elsewhere)).toEqual(['cat_amd']);
  });

  it('is not copied when nothing is shown: there is nothing to save', () => {
    const notified = shownAt(['cat_amd', 1]);
    expect(plan({ now, notified }).record).toBe(notified);
  });
});

describe('the record keeps only what can still matter', () => {
  it('an entry goes once its catalyst can no longer be due anywhere, read or written', () => {
    const amd = catalyst(); // all-day on 5 March
    expect(entryUntil(amd)).toBe(at('2026-03-06T00:00:00Z') + RECORD_MARGIN_MS);
    const shown = plan({ now: at('2026-03-04T08:00:00Z') }).record;
    const until = entryUntil(amd);
    expect(restart(shown, until - 1).has('cat_amd')).toBe(true);
    expect(restart(shown, until).has('cat_amd')).toBe(false);
    const other = catalyst({ id: 'other', at: '2026-03-09' });
    const written = plan({
      now: until,
      catalysts: [other],
      notified: shown,
      settings: settings({ lead: '1-week' }),
    });
    expect([...written.record.keys()]).toEqual(['other']);
  });

  // The worker reads the record back before every check: walking from before the window until
  // days after the catalyst, each check after a restart and at least at each time the plan asks
  // for, nothing is shown twice. The second comes about as late as a reminder can: its moment
  // falls in quiet hours, so it is shown when they end, 22 h later, and stays deliverable for
  // QUIET_GRACE_MS more.
  it.each([
    ['an all-day catalyst, in a zone west of UTC', catalyst(), settings({ timeZone: 'Pacific/Honolulu' })],
    [
      'a date-time catalyst at 00:01, in quiet hours until 22:00',
      catalyst({ at: '2026-03-04T23:01:00Z', all_day: false, status: 'confirmed' }),
      settings({ quietHours: { start: 0, end: 22 * 60 }, lead: 'same-day' }),
    ],
  ] as const)('%s: shown once', (_, subject, zoned) => {
    let record: NotifiedRecord = new Map();
    const shows: number[] = [];
    for (let now = at('2026-02-25T00:00:00Z'); now < at('2026-03-12T00:00:00Z');) {
      const p = plan({ now, catalysts: [subject], settings: zoned, notified: restart(record, now) });
      if (p.notice) shows.push(now);
      record = p.record;
      const step = now + 15 * 60_000;
      now = p.nextCheckAt !== null && p.nextCheckAt > now ? Math.min(p.nextCheckAt, step) : step;
    }
    expect(shows).toHaveLength(1);
  });
});

describe('the window', () => {
  it('an all-day catalyst on the 5th, "1 day before": due from 00:00 local on the 4th', () => {
    const opens = at('2026-03-03T23:00:00Z'); // 00:00 in Berlin (UTC+1)
    const before = plan({ now: opens - 1 });
    expect(before.notice).toBeNull();
    expect(before.nextCheckAt).toBe(opens);
    expect(shownIds(plan({ now: opens }))).toEqual(['cat_amd']);
  });

  it.each([
    ['same-day', '2026-03-04T23:00:00Z'],
    ['3-days', '2026-03-01T23:00:00Z'],
    ['1-week', '2026-02-25T23:00:00Z'],
  ] as const)('"%s" opens at %s', (lead, opens) => {
    expect(plan({ now: at(opens) - 1, settings: settings({ lead }) }).nextCheckAt).toBe(at(opens));
    expect(plan({ now: at(opens), settings: settings({ lead }) }).notice).not.toBeNull();
  });

  it('off shows nothing and records nothing', () => {
    const p = plan({ now: at('2026-03-05T08:00:00Z'), settings: settings({ lead: 'off' }) });
    expect(p).toEqual({ notice: null, record: new Map(), deferredUntil: null, nextCheckAt: null });
  });

  it('a date-time catalyst opens at local midnight of the day before its local day, and passes at its moment', () => {
    const nvda = catalyst({
      id: 'cat_nvda',
      at: '2026-03-05T21:20:00Z',
      all_day: false,
      status: 'confirmed',
    });
    const ny = settings({ timeZone: 'America/New_York' }); // 16:20 on the 5th in New York (UTC-5)
    const opens = at('2026-03-04T05:00:00Z');
    expect(plan({ now: opens - 1, catalysts: [nvda], settings: ny }).nextCheckAt).toBe(opens);
    expect(shownIds(plan({ now: opens, catalysts: [nvda], settings: ny }))).toEqual(['cat_nvda']);
    expect(plan({ now: at('2026-03-05T21:20:00Z'), catalysts: [nvda], settings: ny }).notice).toBeNull();
  });

  it('follows the zone across a DST change (Berlin, 29 March 2026)', () => {
    const onMonday = catalyst({ at: '2026-03-31' }); // opens 00:00 CEST on the 30th = 22:00Z on the 29th
    expect(plan({ now: at('2026-03-29T21:59:59Z'), catalysts: [onMonday] }).nextCheckAt).toBe(
      at('2026-03-29T22:00:00Z'),
    );
    expect(zoneFor(BERLIN).instant({ year: 2026, month: 3, day: 29 }, 0)).toBe(at('2026-03-28T23:00:00Z'));
  });

  it('a passed all-day catalyst is not reminded of; an unknown zone reads as UTC', () => {
    expect(plan({ now: at('2026-03-05T23:00:00Z') }).notice).toBeNull();
    const utc = settings({ timeZone: 'Mars/Olympus_Mons' });
    expect(plan({ now: at('2026-03-03T23:59:59Z'), settings: utc }).nextCheckAt).toBe(
      at('2026-03-04T00:00:00Z'),
    );
  });
});

describe('many at once', () => {
  it('two or more due make one summary, in list order, and all are recorded', () => {
    const catalysts = [
      catalyst({ id: 'a' }),
      catalyst({ id: 'b', at: '2026-03-05T15:00:00Z', all_day: false }),
      catalyst({ id: 'c', status: 'confirmed' }),
      catalyst({ id: 'later', at: '2026-04-01' }),
    ];
    const p = plan({ now: at('2026-03-04T08:00:00Z'), catalysts });
    expect(p.notice?.kind).toBe('summary');
    expect(shownIds(p)).toEqual(['a', 'b', 'c']);
    expect([...p.record.keys()]).toEqual(['a', 'b', 'c']);
    expect(p.nextCheckAt).toBe(at('2026-03-30T22:00:00Z'));
  });
});

describe('quiet hours', () => {
  const quiet = settings({ quietHours: { start: 22 * 60, end: 7 * 60 } }); // 22:00–07:00, across midnight

  it('a reminder due in quiet hours waits until they end and is shown then', () => {
    const opens = at('2026-03-03T23:00:00Z'); // 00:00 Berlin, inside 22:00–07:00
    const during = plan({ now: opens, settings: quiet });
    expect(during.notice).toBeNull();
    expect(during.record.size).toBe(0);
    const ends = at('2026-03-04T06:00:00Z'); // 07:00 Berlin
    expect(during.deferredUntil).toBe(ends);
    expect(during.nextCheckAt).toBe(ends);
    expect(plan({ now: ends - 1, settings: quiet }).notice).toBeNull();
    expect(shownIds(plan({ now: ends, settings: quiet }))).toEqual(['cat_amd']);
  });

  it('before midnight too (22:30), and not outside them (21:59)', () => {
    const evening = at('2026-03-04T21:30:00Z'); // 22:30 Berlin on the 4th
    expect(plan({ now: evening, settings: quiet }).deferredUntil).toBe(at('2026-03-05T06:00:00Z'));
    expect(plan({ now: at('2026-03-04T20:59:00Z'), settings: quiet }).notice).not.toBeNull();
  });

  it('quiet hours that do not wrap: 12:00–14:00', () => {
    const lunch = settings({ quietHours: { start: 12 * 60, end: 14 * 60 } });
    expect(plan({ now: at('2026-03-04T11:30:00Z'), settings: lunch }).deferredUntil).toBe(
      at('2026-03-04T13:00:00Z'),
    );
    expect(plan({ now: at('2026-03-04T13:00:00Z'), settings: lunch }).notice).not.toBeNull();
    expect(plan({ now: at('2026-03-04T10:59:00Z'), settings: lunch }).notice).not.toBeNull();
  });

  it('never dropped: a catalyst whose moment falls inside the quiet hours is still shown when they end', () => {
    // 05:30 Berlin on the 5th, "on the day": due from 00:00, quiet until 07:00, the moment passes at 05:30.
    const early = catalyst({ id: 'early', at: '2026-03-05T04:30:00Z', all_day: false, status: 'confirmed' });
    const sameDay = { ...quiet, lead: 'same-day' as const };
    const ends = at('2026-03-05T06:00:00Z');
    expect(
      plan({ now: at('2026-03-05T05:00:00Z'), catalysts: [early], settings: sameDay }).deferredUntil,
    ).toBe(ends);
    expect(shownIds(plan({ now: ends, catalysts: [early], settings: sameDay }))).toEqual(['early']);
    expect(shownIds(plan({ now: ends + 30 * 60_000, catalysts: [early], settings: sameDay }))).toEqual([
      'early',
    ]);
    expect(plan({ now: ends + QUIET_GRACE_MS, catalysts: [early], settings: sameDay }).notice).toBeNull();
  });

  it('equal start and end mean no quiet hours', () => {
    const none = settings({ quietHours: { start: 0, end: 0 } });
    expect(plan({ now: at('2026-03-03T23:00:00Z'), settings: none }).notice).not.toBeNull();
  });
});

describe('zone arithmetic (cached per UTC day)', () => {
  it('reads the wall clock on both sides of a change within the day it happens', () => {
    const berlin = zoneFor(BERLIN);
    expect(berlin.wallClock(at('2026-03-29T00:30:00Z'))).toEqual({
      year: 2026,
      month: 3,
      day: 29,
      minutes: 90,
    });
    expect(berlin.wallClock(at('2026-03-29T01:30:00Z'))).toEqual({
      year: 2026,
      month: 3,
      day: 29,
      minutes: 210,
    });
    const ny = zoneFor('America/New_York'); // back to EST at 06:00Z on 1 November 2026
    expect(ny.wallClock(at('2026-11-01T05:30:00Z')).minutes).toBe(90);
    expect(ny.wallClock(at('2026-11-01T06:30:00Z')).minutes).toBe(90);
    expect(ny.instant({ year: 2026, month: 11, day: 2 }, 0)).toBe(at('2026-11-02T05:00:00Z'));
  });

  it("no zone named is the browser's own, read from Date without Intl, and agrees with Intl's", () => {
    const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
    for (const iso of ['2026-01-15T12:00:00Z', '2026-07-15T12:00:00Z', '2026-03-29T01:30:00Z']) {
      const ms = at(iso);
      expect(zoneFor().offsetAt(ms)).toBe(-new Date(ms).getTimezoneOffset() * 60_000);
      expect(zoneFor().wallClock(ms)).toEqual(zoneFor(own).wallClock(ms));
    }
    const now = at('2026-03-04T08:00:00Z');
    const unnamed = plan({ now, settings: { lead: '1-week' } });
    expect(unnamed).toEqual(plan({ now, settings: { lead: '1-week', timeZone: own } }));
  });

  it('a zone east of UTC: Tokyo midnight is 15:00Z the day before', () => {
    expect(zoneFor('Asia/Tokyo').instant({ year: 2026, month: 3, day: 5 }, 0)).toBe(
      at('2026-03-04T15:00:00Z'),
    );
  });
});
