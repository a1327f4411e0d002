import { describe, expect, it } from 'vitest';
import { backtestResultLine, formatDay, formatPercent, formatRatio } from '@/lib/backtests/format';

describe('formatPercent', () => {
  it.each([
    [0.1234, 'en-US', true, '+12.3%'],
    [-0.154, 'en-US', false, '-15.4%'],
    [0, 'en-US', true, '0.0%'],
    [0.0871, 'de-DE', true, '+8,7\u00a0%'],
    [1.5, 'en-US', false, '150.0%'],
  ])('%s in %s (signed %s) → %s', (value, locale, signed, expected) => {
    expect(formatPercent(value, locale, signed)).toBe(expected);
  });
});

it('formatRatio gives two decimals in the locale', () => {
  expect(formatRatio(1.234, 'en-US')).toBe('1.23');
  expect(formatRatio(1.234, 'fr-FR')).toBe('1,23');
});

it('formatDay reads YYYY-MM-DD as a calendar day whatever the time zone', () => {
  expect(formatDay('2024-01-02', 'en-US')).toBe('Jan 2, 2024');
  expect(formatDay('not a date', 'en-US')).toBe('not a date');
});

describe('backtestResultLine', () => {
  const data = {
    backtest_id: 'bt_1',
    total_return: 0.123,
    benchmark_return: 0.087,
    max_drawdown: -0.154,
    sharpe: 1.2,
  };

  it('says the result in one line', () => {
    expect(backtestResultLine(data, 'SPY', 'en-US')).toBe('+12.3% vs SPY +8.7%, max drawdown -15.4%');
  });

  it('says "benchmark" when the name is unknown or not ticker-shaped', () => {
    expect(backtestResultLine(data, undefined, 'en-US')).toBe(
      '+12.3% vs benchmark +8.7%, max drawdown -15.4%',
    );
    expect(backtestResultLine(data, 'Click <here>', 'en-US')).toMatch(/vs benchmark/);
  });

  it.each([
    ['no data', undefined],
    ['percent strings', { ...data, total_return: '12%' }],
    ['a missing figure', { backtest_id: 'bt_1', total_return: 0.1 }],
    ['a positive drawdown', { ...data, max_drawdown: 0.2 }],
    ['an infinite return', { ...data, total_return: Infinity }],
  ])('is undefined for %s', (_name, value) => {
    expect(backtestResultLine(value, 'SPY', 'en-US')).toBeUndefined();
  });
});
