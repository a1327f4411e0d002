import { describe, expect, it } from 'vitest';
import {
  clockTime,
  problemOf,
  relativeTime,
  shortTitle,
  TITLE_ROOM,
  warmFormats,
} from '@/lib/pages/popup/format';
import { useLocale } from '../../../fixtures/i18n';

const NOW = Date.parse('2026-03-01T12:00:00Z');

describe('relativeTime', () => {
  it.each([
    [NOW - 10_000, 'just now'],
    [NOW - 5 * 60_000, '5 minutes ago'],
    [NOW - 3 * 3600_000, '3 hours ago'],
    [NOW - 2 * 86400_000, '2 days ago'],
    [NOW - 30 * 86400_000, 'Jan 30, 2026'],
    ['not a date', 'unknown time'],
  ] as const)('%s → %s', (at, text) => {
    expect(relativeTime(at, NOW)).toBe(text);
  });

  it.each([
    [NOW - 10_000, 'gerade eben'],
    [NOW - 5 * 60_000, 'vor 5 Minuten'],
    [NOW - 86400_000, 'gestern'],
    [NOW - 30 * 86400_000, '30.01.2026'],
  ] as const)('in German: %s → %s', (at, text) => {
    useLocale('de');
    expect(relativeTime(at, NOW)).toBe(text);
  });
});

describe('problemOf', () => {
  it.each([
    [{ code: 'api.unauthorized', message: 'm', details: {} }, 'no-key'],
    [
      { code: 'api.unauthorized', message: 'm', details: { status: 401, link: 'https://s/apikey' } },
      'unauthorized',
    ],
    [
      { code: 'api.forbidden', message: 'm', details: { status: 403, code: 'permission_denied' } },
      'forbidden',
    ],
    [{ code: 'api.network', message: 'm' }, 'offline'],
    [{ code: 'api.timeout', message: 'm' }, 'offline'],
    [{ code: 'internal', message: 'm' }, 'offline'],
    [{ code: 'api.rate-limited', message: 'm', details: { retryAt: 5 } }, 'rate-limited'],
    [{ code: 'api.malformed-response', message: 'm' }, 'other'],
    [{ code: 'unknown-message', message: 'm' }, 'other'],
  ])('%j → %s', (wire, kind) => {
    expect(problemOf(wire).kind).toBe(kind);
  });

  it('keeps the link and the code, and ignores non-string ones', () => {
    expect(
      problemOf({
        code: 'api.unauthorized',
        message: 'm',
        details: { status: 401, link: 'https://s/apikey' },
      }).link,
    ).toBe('https://s/apikey');
    expect(problemOf({ code: 'api.forbidden', message: 'm', details: { code: 42 } }).code).toBeUndefined();
  });
});

describe('clockTime', () => {
  it('says what toLocaleTimeString says in the UI language', () => {
    warmFormats();
    for (const at of [0, Date.UTC(2026, 10, 24, 2, 5), Date.UTC(2026, 5, 1, 23, 59)])
      expect(clockTime(at)).toBe(
        new Date(at).toLocaleTimeString('en', { hour: 'numeric', minute: '2-digit' }),
      );
    useLocale('de');
    const at = Date.UTC(2026, 10, 24, 14, 5);
    expect(clockTime(at)).toBe(new Date(at).toLocaleTimeString('de', { hour: 'numeric', minute: '2-digit' }));
  });

  it('a time that is not one reads "unknown time" instead of throwing', () => {
    expect(clockTime(Number.NaN)).toBe('unknown time');
    expect(clockTime(Number.POSITIVE_INFINITY)).toBe('unknown time');
  });
});

describe('shortTitle', () => {
  const long =
    'Grid modernization and transmission capex: regulated utilities with rate-base growth above 8 % a year through 2030, variant 50';

  it('keeps a long title’s start and its end, cut in the middle at words', () => {
    const short = shortTitle(long)!;
    expect(short).toBe('Grid modernization and … 2030, variant 50');
    expect(short.length).toBeLessThanOrEqual(TITLE_ROOM);
  });

  it('leaves a title that fits alone, and counts wide characters twice', () => {
    expect(shortTitle('Travel demand normalisation: 6-month quality screen')).toBeUndefined();
    const wide = '送電網の近代化と送電設備投資：料金基盤の成長が年8%を超える規制公益事業、バリアント50';
    expect(shortTitle(wide)).toMatch(/^送電網.* … .*50$/);
    expect(shortTitle('送電網の近代化')).toBeUndefined();
  });
});
