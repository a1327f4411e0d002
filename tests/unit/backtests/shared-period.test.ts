/**
 * The comparison over the shared period (CONTRACT.md section 6): the latest start to the earliest
 * end, each curve rebased to 1.0 on the first shared date, and total return, benchmark return and
 * max drawdown over that period only. Checked on cases worked by hand and, with random series,
 * against a brute-force reference; plus the axes' ticks.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { compareOverSharedPeriod, sharedPeriod } from '@/lib/backtests/series';
import { dateTickIndexes, returnTicks, spansMonths } from '@/lib/backtests/axes';
import type { EquityPoint } from '@/lib/contract/backtest';

const day = (index: number) => new Date(Date.UTC(2022, 0, 3 + index)).toISOString().slice(0, 10);
const p = (date: string, value: number, benchmark = 1): EquityPoint => ({ date, value, benchmark });

describe('the shared period, worked by hand', () => {
  // 2021–2024 against 2022–2023: the period is 2022's start to 2023's end.
  const long = {
    label: 'Long',
    points: [
      p('2021-01-04', 1, 1),
      p('2022-01-03', 1.25, 1.1),
      p('2022-06-01', 1, 0.99),
      p('2023-12-29', 1.5, 1.21),
      p('2024-12-31', 3, 2),
    ],
  };
  const short = {
    label: 'Short',
    points: [p('2022-01-03', 1, 1), p('2022-07-01', 1.2, 1.05), p('2023-12-29', 1.1, 1.1)],
  };
  const result = compareOverSharedPeriod([long, short]);

  it('runs from the latest start to the earliest end', () => {
    expect(result.period).toEqual({ start: '2022-01-03', end: '2023-12-29' });
  });

  it('rebases each curve to 1.0 on the first shared date and cuts it at the last', () => {
    expect(result.series[0].points).toEqual(
      [p('2022-01-03', 1), p('2022-06-01', 0.8), p('2023-12-29', 1.2)].map(({ date, value }) => ({
        date,
        value,
      })),
    );
  });

  it('works out the figures over the shared period only, not the backtest’s own', () => {
    const [first, second] = result.series;
    // Long: 1.25 → 1.5 is +20 %, not its own +200 %; the fall 1.25 → 1 is −20 %.
    expect(first.totalReturn).toBeCloseTo(0.2, 12);
    expect(first.benchmarkReturn).toBeCloseTo(0.1, 12);
    expect(first.maxDrawdown).toBeCloseTo(-0.2, 12);
    expect(second.totalReturn).toBeCloseTo(0.1, 12);
    expect(second.maxDrawdown).toBeCloseTo(1.1 / 1.2 - 1, 12);
  });

  it.each([
    ['no series', []],
    ['an empty series', [{ points: [] }]],
    ['periods that do not overlap', [{ points: [p(day(0), 1), p(day(1), 1)] }, { points: [p(day(2), 1)] }]],
  ])('has no period with %s', (_name, series) => {
    expect(sharedPeriod(series)).toBeUndefined();
  });

  it('a period of one day, shared by touching ends, is a period with returns of zero', () => {
    const touching = compareOverSharedPeriod([
      { label: 'A', points: [p(day(0), 1), p(day(1), 2)] },
      { label: 'B', points: [p(day(1), 1), p(day(2), 3)] },
    ]);
    expect(touching.period).toEqual({ start: day(1), end: day(1) });
    expect(touching.series.map((s) => [s.totalReturn, s.maxDrawdown])).toEqual([
      [0, 0],
      [0, 0],
    ]);
  });
});

/** A series on distinct ascending days (offsets into a window) with values of an ordinary backtest. */
const seriesArb = fc
  .uniqueArray(fc.integer({ min: 0, max: 60 }), { minLength: 1, maxLength: 30 })
  .chain((days) =>
    fc.tuple(
      fc.constant([...days].sort((a, b) => a - b)),
      fc.array(fc.double({ min: 0.05, max: 20, noNaN: true }), {
        minLength: days.length,
        maxLength: days.length,
      }),
      fc.array(fc.double({ min: 0.05, max: 20, noNaN: true }), {
        minLength: days.length,
        maxLength: days.length,
      }),
    ),
  )
  .map(([days, values, benches]) => days.map((d, i) => p(day(d), values[i], benches[i])));

/** The reference: by definition, quadratic, with no shared index arithmetic. */
function reference(points: EquityPoint[], start: string, end: string) {
  const at = (date: string) => points.filter((q) => q.date <= date).at(-1)!;
  const base = at(start);
  const inside = [base, ...points.filter((q) => q.date > start && q.date <= end)];
  let worst = 0;
  for (let i = 0; i < inside.length; i++)
    for (let j = i; j < inside.length; j++) worst = Math.min(worst, inside[j].value / inside[i].value - 1);
  return {
    totalReturn: at(end).value / base.value - 1,
    benchmarkReturn: at(end).benchmark / base.benchmark - 1,
    maxDrawdown: worst,
    dates: inside.slice(1).map((q) => q.date),
  };
}

describe('random series against the brute-force reference', () => {
  test.prop([fc.array(seriesArb, { minLength: 1, maxLength: 4 })], { numRuns: 300 })(
    'the period, the rebased curves and every figure',
    (input) => {
      const series = input.map((points, i) => ({ label: `S${i}`, points }));
      const result = compareOverSharedPeriod(series);
      const start = series.map((s) => s.points[0].date).reduce((a, b) => (a > b ? a : b));
      const end = series.map((s) => s.points.at(-1)!.date).reduce((a, b) => (a < b ? a : b));
      if (start > end) {
        expect(result.period).toBeUndefined();
        expect(result.series).toEqual([]);
        return;
      }
      expect(result.period).toEqual({ start, end });
      expect(result.series.map((s) => s.label)).toEqual(series.map((s) => s.label));
      result.series.forEach((compared, i) => {
        const want = reference(series[i].points, start, end);
        expect(compared.points[0]).toEqual({ date: start, value: 1 });
        expect(compared.points.slice(1).map((q) => q.date)).toEqual(want.dates);
        for (const q of compared.points) expect(q.date >= start && q.date <= end).toBe(true);
        expect(compared.totalReturn).toBeCloseTo(want.totalReturn, 9);
        expect(compared.benchmarkReturn).toBeCloseTo(want.benchmarkReturn, 9);
        expect(compared.maxDrawdown).toBeCloseTo(want.maxDrawdown, 9);
        expect(compared.maxDrawdown).toBeLessThanOrEqual(0);
      });
    },
  );
});

describe('axes', () => {
  it.each([
    // growth from 0.85 to 1.25: returns −15 % … +25 %, every 10 %, with 0 %.
    [0.85, 1.25, [-0.1, 0, 0.1, 0.2], 0],
    [0.97, 1.035, [-0.02, 0, 0.02], 0],
    [1, 1.1, [0, 0.02, 0.04, 0.06, 0.08, 0.1], 0],
    [0.5, 3.2, [-0.5, 0, 0.5, 1, 1.5, 2], 0],
    [0.999, 1.0012, [-0.001, -0.0005, 0, 0.0005, 0.001], 2],
  ] as const)('returnTicks(%s, %s) is %j with %s decimals', (min, max, ticks, digits) => {
    const result = returnTicks(min, max);
    expect(result.ticks.map((x) => Number(x.toFixed(6)))).toEqual([...ticks]);
    expect(result.digits).toBe(digits);
  });

  test.prop([
    fc.double({ min: 1e-6, max: 1e6, noNaN: true }),
    fc.double({ min: 1e-6, max: 1e6, noNaN: true }),
  ])('ticks are few, inside the range, ascending, and hold 0 when the range crosses it', (a, b) => {
    const [min, max] = a < b ? [a, b] : [b, a];
    const { ticks } = returnTicks(min, max);
    expect(ticks.length).toBeLessThanOrEqual(8);
    for (const tick of ticks) expect(tick >= min - 1 - 1e-9 * max && tick <= max - 1 + 1e-9 * max).toBe(true);
    expect([...ticks].sort((x, y) => x - y)).toEqual(ticks);
    if (min < 1 && max > 1 && max - min > 1e-3) expect(ticks).toContain(0);
  });

  it.each([
    [0, []],
    [1, [0]],
    [2, [0, 1]],
    [753, [0, 251, 501, 752]],
  ])('dateTickIndexes(%s) is %j', (count, indexes) => {
    expect(dateTickIndexes(count)).toEqual(indexes);
  });

  it('labels months over a long range, days over a short one', () => {
    expect(spansMonths('2022-01-03', '2024-12-31')).toBe(true);
    expect(spansMonths('2024-01-02', '2024-01-05')).toBe(false);
  });
});
