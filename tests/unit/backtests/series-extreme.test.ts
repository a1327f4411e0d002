import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { formatGrowth, formatPercent, formatRatio, formatReturn } from '@/lib/backtests/format';
import {
  alignSeries,
  chartScale,
  checkSeries,
  isDrawnValue,
  linePath,
  MAX_DRAWN_GROWTH,
  compareOverSharedPeriod,
} from '@/lib/backtests/series';
import type { EquityPoint } from '@/lib/contract/backtest';

/** Only finite coordinates with two decimals: no NaN, no Infinity, no exponent. */
const PATH = /^(?:[ML]-?\d+\.\d{2} -?\d+\.\d{2})*$/;
const UNREADABLE = /∞|NaN|Infinity|e[-+\u2212]?\d/i;

const day = (index: number) => new Date(Date.UTC(2024, 0, 1 + index)).toISOString().slice(0, 10);
const series = (label: string, values: readonly number[], from = 0) => ({
  label,
  points: values.map((value, i): EquityPoint => ({ date: day(from + i), value, benchmark: 1 })),
});

/** The whole comparison pipeline: what the chart would draw, and what its readout and table would say. */
function drawn(input: { label: string; points: EquityPoint[] }[]) {
  const rebased = compareOverSharedPeriod(input);
  const aligned = alignSeries(rebased.series);
  const scale = chartScale(aligned.dates.length, aligned.lines);
  const paths = aligned.lines.map((line) => linePath(line.values, scale));
  const shown = [
    ...aligned.lines.flatMap((line) => line.values.map((v) => (v === null ? '–' : formatReturn(v - 1)))),
    ...rebased.series.flatMap((s) =>
      [s.totalReturn, s.benchmarkReturn, s.maxDrawdown].map((f) => formatReturn(f)),
    ),
  ];
  return { rebased, aligned, scale, paths, shown };
}

describe('a series that rebases out of range is refused whole; the others still draw', () => {
  it("the issue's series (5e-324, then 1) is refused, and the honest curve is drawn with finite coordinates", () => {
    const honest = series('Honest', [1, 1.1, 0.95, 1.2]);
    const extreme = series('Extreme', [5e-324, 1, 1, 1]);
    expect(checkSeries(extreme.points).ok).toBe(true);
    const { rebased, paths, scale, shown } = drawn([honest, extreme]);
    expect(rebased.series.map((s) => s.label)).toEqual(['Honest']);
    expect(rebased.refused).toEqual(['Extreme']);
    expect(paths).toHaveLength(1);
    expect(paths[0]).toMatch(PATH);
    expect(paths[0].match(/[ML]/g)).toHaveLength(4);
    expect([scale.min, scale.max, scale.y(1)].every(Number.isFinite)).toBe(true);
    for (const text of shown) expect(text).not.toMatch(UNREADABLE);
  });

  it.each([
    ['a ratio that overflows', [5e-324, 1e-300]],
    ['a ratio beyond the drawn range', [1e-3, 10_000]],
    ['a ratio that underflows to zero', [10_000, 5e-324]],
  ])('%s', (_name, values) => {
    const { rebased } = drawn([series('A', [1, 1]), series('B', values)]);
    expect(rebased.refused).toEqual(['B']);
    expect(rebased.series.map((s) => s.label)).toEqual(['A']);
  });

  it('keeps a series of tiny values whose ratios stay in range', () => {
    const { rebased, paths } = drawn([series('Tiny', [5e-324, 5e-324, 1e-323])]);
    expect(rebased.series[0].points.map((p) => p.value)).toEqual([1, 1, 2]);
    expect(paths[0]).toMatch(PATH);
  });

  it('the scale and paths skip values outside the drawn range instead of drawing NaN', () => {
    const lines = [
      { label: 'A', values: [1, Infinity, NaN, -1, MAX_DRAWN_GROWTH * 2, 0, 1.5] },
      { label: 'B', values: [1, 1.2, null, 1.1, 1, 1, 1] },
    ];
    const scale = chartScale(7, lines);
    expect([scale.min, scale.max]).toEqual([1, 1.5]);
    const path = linePath(lines[0].values, scale);
    expect(path).toMatch(PATH);
    expect(path.match(/M/g)).toHaveLength(2);
    expect(isDrawnValue(MAX_DRAWN_GROWTH)).toBe(true);
    expect([Infinity, NaN, 0, -1, null, undefined].some((v) => isDrawnValue(v))).toBe(false);
  });
});

/** Growth values the schema accepts, weighted toward its extremes. */
const growth = fc.oneof(
  fc.constantFrom(Number.MIN_VALUE, 1e-320, 1e-300, 1e-12, 1, 10_000),
  fc.double({ min: Number.MIN_VALUE, max: 10_000, noNaN: true }),
);
const anySeries = fc.record({
  from: fc.integer({ min: 0, max: 5 }),
  values: fc.array(growth, { minLength: 1, maxLength: 25 }),
});
/** A curve over every date of the test, inside an ordinary range: it must always be drawn. */
const honestValues = fc.array(fc.double({ min: 0.5, max: 2, noNaN: true }), { minLength: 31, maxLength: 31 });

describe('random series that pass the schema, extreme doubles included', () => {
  test.prop([fc.array(anySeries, { minLength: 1, maxLength: 3 }), honestValues], { numRuns: 300 })(
    'every path is finite, every figure readable, every series drawn or named, the honest one drawn',
    (hostile, honest) => {
      const input = [series('Honest', honest), ...hostile.map((s, i) => series(`S${i}`, s.values, s.from))];
      for (const s of input) expect(checkSeries(s.points).ok).toBe(true);
      const { rebased, aligned, scale, paths, shown } = drawn(input);
      for (const path of paths) expect(path).toMatch(PATH);
      for (const line of aligned.lines)
        for (const v of line.values) expect(v === null || isDrawnValue(v)).toBe(true);
      for (const text of shown) expect(text).not.toMatch(UNREADABLE);
      expect([scale.min, scale.max, scale.y(1), scale.x(0)].every(Number.isFinite)).toBe(true);
      // With a shared period the honest curve is drawn; without one nothing is, and the view says so.
      if (rebased.period) expect(rebased.series.map((s) => s.label)).toContain('Honest');
      else expect(rebased.series).toEqual([]);
      const named = [...rebased.series.map((s) => s.label), ...rebased.skipped, ...rebased.refused];
      if (rebased.period) expect(named.sort()).toEqual(input.map((s) => s.label).sort());
    },
  );

  test.prop([fc.double()], { numRuns: 300 })('a figure never reads ∞, NaN or hundreds of digits', (value) => {
    for (const text of [
      formatPercent(value),
      formatPercent(value, true),
      formatRatio(value),
      formatGrowth(value),
      formatReturn(value),
    ]) {
      expect(text).not.toMatch(UNREADABLE);
      expect(text.length).toBeLessThan(20);
    }
  });
});
