import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { t, uiLocale, resetLocaleCache, localizeDocument } from '../../../lib/i18n';
import { formatPercent, formatRelative, formatNumber } from '../../../lib/i18n/format';

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
