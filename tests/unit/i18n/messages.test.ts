import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { t, uiLocale, resetLocaleCache, localizeDocument } from '../../../lib/i18n';
import { formatClock, formatPercent, formatRelative, formatNumber } from '../../../lib/i18n/format';

describe('lib/i18n', () => {
  it('reads the English locale and fills named placeholders once', () => {
    expect(t('common.disclaimerLine')).toBe('Decision support, not financial advice.');
    expect(uiLocale()).toBe('en');
  });

  it('formats in the UI language', () => {
    (fakeBrowser.i18n as { getUILanguage: unknown }).getUILanguage = () => 'de';
    resetLocaleCache();
    expect(formatNumber(1234.5)).toBe('1.234,5');
    expect(formatPercent(0.123)).toBe('12,3\u00a0%');
    expect(formatRelative(Date.now() - 3 * 60_000)).toBe('vor 3 Minuten');
  });

  it('rounds a return worked out from a growth of 1 as the same return given as a figure', () => {
    (fakeBrowser.i18n as { getUILanguage: unknown }).getUILanguage = () => 'en';
    resetLocaleCache();
    // 1.1945 − 1 is 0.19449999999999990 in floating point: it must not read "+19.4%" beside the
    // service's benchmark return 0.1945 ("+19.5%") for the same period.
    expect(formatPercent(1.1945 - 1, 1, true)).toBe(formatPercent(0.1945, 1, true));
    expect(formatPercent(1.1945 - 1, 1, true)).toBe('+19.5%');
    expect(formatPercent(0.8055 - 1, 1, true)).toBe('−19.5%');
  });

  it('writes an hour without a leading zero where the language does not ("2:00 PM")', () => {
    (fakeBrowser.i18n as { getUILanguage: unknown }).getUILanguage = () => 'en';
    resetLocaleCache();
    expect(formatClock(new Date(2026, 0, 2, 14, 0))).toMatch(/^2:00\s?PM$/);
  });

  it('sets lang and dir on the page', () => {
    const page = { documentElement: { lang: '', dir: '' } } as unknown as Document;
    localizeDocument(page);
    expect(page.documentElement.lang).toBe('en');
    expect(page.documentElement.dir).toBe('ltr');
  });
});

describe('plural', () => {
  it('chooses the form by Intl.PluralRules and formats the count', async () => {
    const { plural } = await import('../../../lib/i18n');
    expect(plural('notifications.summary', 1)).toBe(
      '1 playbook changed. Decision support, not financial advice.',
    );
    expect(plural('notifications.summary', 1234)).toBe(
      '1,234 playbooks changed. Decision support, not financial advice.',
    );
  });
});
