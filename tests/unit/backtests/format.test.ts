import { describe, expect, it } from 'vitest';
import {
  backtestResultLine,
  formatDay,
  formatPercent,
  formatRatio,
  formatReturn,
} from '@/lib/backtests/format';
import { useLocale } from '../../fixtures/i18n';

describe('formatPercent', () => {
  it.each([
    [0.1234, 'en', true, '+12.3%'],
    [-0.154, 'en', false, '\u221215.4%'],
    [0, 'en', true, '0.0%'],
    [0.0871, 'de', true, '+8,7\u00a0%'],
    [1.5, 'en', false, '150.0%'],
  ])('%s in %s (signed %s) → %s', (value, locale, signed, expected) => {
    useLocale(locale);
    expect(formatPercent(value, signed)).toBe(expected);
  });
});

it('formatRatio gives two decimals in the UI language', () => {
  expect(formatRatio(1.234)).toBe('1.23');
  useLocale('fr');
  expect(formatRatio(1.234)).toBe('1,23');
});

// A negative Sharpe ratio beside the returns: the same real minus (U+2212), never a hyphen-minus.
it.each([
  ['en', -0.2243, '\u22120.22'],
  ['de', -0.0612, '\u22120,06'],
  ['ar', -0.22, '\u22120.22'],
])('formatRatio in %s writes %s with the real minus', (locale, value, expected) => {
  useLocale(locale);
  const shown = formatRatio(value);
  expect(shown).not.toContain('-');
  // Arabic marks the number left to right (U+200E); the figure around the marks is the point.
  expect(shown.replace(/\u200e/g, '')).toBe(expected);
});

it.each(['en', 'de', 'ar', 'ja'])(
  '%s: a negative Sharpe ratio has the same sign character as the negative return beside it',
  (locale) => {
    useLocale(locale);
    const sign = (text: string) => text.replace(/[\d.,\s%\u200e\u061c]/g, '');
    expect(sign(formatRatio(-0.5))).toBe(sign(formatReturn(-0.5)));
  },
);

describe('formatDay', () => {
  it('reads YYYY-MM-DD as a calendar day whatever the time zone', () => {
    expect(formatDay('2024-01-02')).toBe('Jan 2, 2024');
    expect(formatDay('0099-12-31')).toMatch(/99/);
  });

  it.each(['not a date', '2024-02-30', '2024-13-01', '2024-1-2', ''])('shows %j as sent', (date) => {
    expect(formatDay(date)).toBe(date);
  });

  it('speaks the UI language', () => {
    useLocale('de');
    expect(formatDay('2024-01-02')).toBe('02.01.2024');
  });
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
    expect(backtestResultLine(data, 'SPY')).toBe('+12.3% vs SPY +8.7%, max drawdown \u221215.4%');
  });

  it('says it in the UI language, with its number format', () => {
    useLocale('de');
    const line = backtestResultLine(data, 'SPY');
    expect(line).toContain('+12,3\u00a0%');
    expect(line).toContain('SPY');
    expect(line).not.toContain('max drawdown');
  });

  it('says "benchmark" when the name is unknown or not ticker-shaped', () => {
    expect(backtestResultLine(data, undefined)).toBe('+12.3% vs benchmark +8.7%, max drawdown \u221215.4%');
    expect(backtestResultLine(data, 'Click <here>')).toMatch(/vs benchmark/);
  });

  it.each([
    ['no data', undefined],
    ['percent strings', { ...data, total_return: '12%' }],
    ['a missing figure', { backtest_id: 'bt_1', total_return: 0.1 }],
    ['a positive drawdown', { ...data, max_drawdown: 0.2 }],
    ['an infinite return', { ...data, total_return: Infinity }],
  ])('is undefined for %s', (_name, value) => {
    expect(backtestResultLine(value, 'SPY')).toBeUndefined();
  });
});
