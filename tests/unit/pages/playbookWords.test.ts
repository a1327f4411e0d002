import { describe, expect, it } from 'vitest';
import { visibilityText } from '@/lib/pages/playbookWords';
import { messageOf, useLocale } from '../../fixtures/i18n';

describe('a visibility in the popup’s words, wherever it is shown', () => {
  it.each(['en', 'de', 'fr', 'es', 'pt_BR', 'ja', 'zh_CN', 'ar'])('%s: the popup’s words', (file) => {
    useLocale(file);
    for (const visibility of ['private', 'unlisted', 'public'] as const)
      expect(visibilityText(visibility)).toBe(messageOf(file, `popup.visibility.${visibility}`));
  });

  it('German: capitalised as a value ("Öffentlich", never "öffentlich")', () => {
    useLocale('de');
    expect(visibilityText('public')).toBe('Öffentlich');
    expect(visibilityText('unlisted')).toBe('Nicht gelistet');
  });
});
