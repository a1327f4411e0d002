import { describe, expect, it } from 'vitest';
import {
  alignSeries,
  chartScale,
  checkSeries,
  linePath,
  newestCompleted,
  compareOverSharedPeriod,
} from '@/lib/backtests/series';
import { backtestSchema, MAX_EQUITY_POINTS } from '@/lib/contract/backtest';

const point = (date: string, value: number, benchmark = 1) => ({ date, value, benchmark });
const days = (n: number, from = Date.parse('2024-01-01T00:00:00Z')) =>
  Array.from({ length: n }, (_v, i) => new Date(from + i * 86_400_000).toISOString().slice(0, 10));

describe('checkSeries', () => {
  it('accepts a well-formed series', () => {
    const result = checkSeries([point('2024-01-02', 1), point('2024-01-03', 1.01, 0.99)]);
    expect(result).toEqual({ ok: true, points: [point('2024-01-02', 1), point('2024-01-03', 1.01, 0.99)] });
  });

  it.each([
    ['missing', undefined, /no equity series/],
    ['not an array', { date: '2024-01-02' }, /malformed/],
    ['empty', [], /malformed/],
    ['dates descending', [point('2024-01-03', 1), point('2024-01-02', 1)], /point 1.*not in ascending order/],
    ['a repeated date', [point('2024-01-02', 1), point('2024-01-02', 1)], /not in ascending order/],
    ['a date that is not YYYY-MM-DD', [point('Jan 2', 1)], /point 0/],
    ['a negative value', [point('2024-01-02', -1)], /malformed/],
    ['NaN smuggled as null', [{ date: '2024-01-02', value: null, benchmark: 1 }], /malformed/],
    ['an absurd value', [point('2024-01-02', 1e12)], /malformed/],
    ['a string value', [{ date: '2024-01-02', value: '1', benchmark: 1 }], /malformed/],
    ['more than 2,000 points', days(MAX_EQUITY_POINTS + 1).map((d) => point(d, 1)), /malformed/],
  ])('refuses %s with a message', (_name, equity, message) => {
    const result = checkSeries(equity);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });

  it('checks 2,000 points (the most a backtest may hold)', () => {
    expect(checkSeries(days(MAX_EQUITY_POINTS).map((d) => point(d, 1))).ok).toBe(true);
  });
});

describe('backtestSchema', () => {
  const valid = {
    id: 'bt_1',
    playbook_id: 'pb_1',
    status: 'completed',
    start: '2024-01-02',
    end: '2024-12-31',
    benchmark: 'SPY',
    created_at: '2025-01-01T00:00:00Z',
    completed_at: '2025-01-01T00:00:20Z',
    metrics: {
      total_return: 0.1,
      benchmark_return: 0.05,
      cagr: 0.1,
      max_drawdown: -0.2,
      sharpe: 1.1,
      volatility: 0.2,
    },
  };
  it('accepts the contract shape and drops unknown keys', () => {
    expect(backtestSchema.parse({ ...valid, extra: 1 })).not.toHaveProperty('extra');
  });
  it.each([
    ['a positive max drawdown', { metrics: { ...valid.metrics, max_drawdown: 0.1 } }],
    // A newer service's status is kept and shown as sent (tests/unit/pages/sidepanel/backtestStatus.test.tsx).
    ['an endless status', { status: 'x'.repeat(41) }],
    ['an endless id', { id: 'x'.repeat(201) }],
    ['an infinite return', { metrics: { ...valid.metrics, total_return: Infinity } }],
  ])('refuses %s', (_name, change) => {
    expect(backtestSchema.safeParse({ ...valid, ...change }).success).toBe(false);
  });
});

describe('compareOverSharedPeriod', () => {
  it('rebases every curve to 1.0 on the latest start and drops earlier points', () => {
    const result = compareOverSharedPeriod([
      { label: 'A', points: [point('2024-01-01', 1), point('2024-01-02', 1.1), point('2024-01-03', 1.21)] },
      { label: 'B', points: [point('2024-01-02', 1), point('2024-01-03', 0.9)] },
    ]);
    expect(result.period).toEqual({ start: '2024-01-02', end: '2024-01-03' });
    expect(result.series[0].points).toEqual([
      { date: '2024-01-02', value: 1 },
      { date: '2024-01-03', value: expect.closeTo(1.1, 10) },
    ]);
    expect(result.series[1].points).toEqual([
      { date: '2024-01-02', value: 1 },
      { date: '2024-01-03', value: 0.9 },
    ]);
  });

  it('uses the last value before the common start when a curve has no point on it', () => {
    const result = compareOverSharedPeriod([
      { label: 'A', points: [point('2024-01-01', 2), point('2024-01-05', 3)] },
      { label: 'B', points: [point('2024-01-03', 1), point('2024-01-05', 1.5)] },
    ]);
    expect(result.series[0].points).toEqual([
      { date: '2024-01-03', value: 1 },
      { date: '2024-01-05', value: 1.5 },
    ]);
  });

  it('has no period, and draws nothing, when one curve ends before another starts', () => {
    const result = compareOverSharedPeriod([
      { label: 'Old', points: [point('2020-01-01', 1), point('2020-06-01', 1.1)] },
      { label: 'New', points: [point('2024-01-01', 1), point('2024-06-01', 1.1)] },
    ]);
    expect(result.period).toBeUndefined();
    expect(result.series).toEqual([]);
  });
});

describe('alignSeries', () => {
  it('puts curves on the union of their dates, carrying values forward inside each range', () => {
    const aligned = alignSeries([
      {
        label: 'A',
        points: [
          { date: '2024-01-02', value: 1 },
          { date: '2024-01-04', value: 1.2 },
        ],
      },
      {
        label: 'B',
        points: [
          { date: '2024-01-02', value: 1 },
          { date: '2024-01-03', value: 0.9 },
        ],
      },
    ]);
    expect(aligned.dates).toEqual(['2024-01-02', '2024-01-03', '2024-01-04']);
    expect(aligned.lines[0].values).toEqual([1, 1, 1.2]);
    expect(aligned.lines[1].values).toEqual([1, 0.9, null]);
  });

  it('thins a long union to at most maxPoints dates, keeping the last', () => {
    const dates = days(5000);
    const aligned = alignSeries([{ label: 'A', points: dates.map((date) => ({ date, value: 1 })) }], 2000);
    expect(aligned.dates.length).toBeLessThanOrEqual(2001);
    expect(aligned.dates.at(-1)).toBe(dates.at(-1));
  });
});

describe('chart geometry', () => {
  it('maps the lowest value to the bottom and the highest to the top of the viewBox', () => {
    const scale = chartScale(3, [{ label: 'A', values: [1, 2, 0.5] }]);
    expect(scale.y(2)).toBeLessThan(scale.y(1));
    expect(scale.y(0.5)).toBeGreaterThan(scale.y(1));
    expect(scale.x(0)).toBeLessThan(scale.x(2));
  });

  it('draws one M then L per point, and starts a new stretch after a gap', () => {
    const scale = chartScale(4, [{ label: 'A', values: [1, 2, null, 1] }]);
    const d = linePath([1, 2, null, 1], scale);
    expect(d.match(/M/g)).toHaveLength(2);
    expect(d.match(/L/g)).toHaveLength(1);
  });

  it('a flat line still gets a range', () => {
    const scale = chartScale(2, [{ label: 'A', values: [1, 1] }]);
    expect(Number.isFinite(scale.y(1))).toBe(true);
  });
});

it('newestCompleted takes the first completed of a newest-first list', () => {
  const b = (id: string, status: string) => ({ id, status }) as never;
  expect(newestCompleted([b('1', 'queued'), b('2', 'completed'), b('3', 'completed')])?.id).toBe('2');
});
