import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { offerWordTable } from '@/build/offerWords';
import { localeFiles } from '@/build/i18nChecks';
import { EAGER_OFFER_KEYS, eagerWords, localeCandidates } from '@/lib/pages/offer/words';
import { chromeMessages } from '../../../fixtures/i18n';

const LOCALES = resolve(__dirname, '../../../../locales');
const table = offerWordTable(LOCALES);
const unused = () => {
  throw new Error('browser.i18n asked although the table has the words');
};

describe("the offer's bundled first words (no i18n call on a page)", () => {
  it('hold, for every locale, what browser.i18n would say', () => {
    expect(Object.keys(table)).toEqual(localeFiles(LOCALES));
    for (const file of localeFiles(LOCALES)) {
      const messages = chromeMessages(file);
      for (const key of EAGER_OFFER_KEYS) expect(table[file][key]).toBe(messages[`offer_${key}`].message);
    }
  });

  it.each([
    ['de-AT', 'de'],
    ['pt-BR', 'pt_BR'],
    ['pt-PT', 'en'],
    ['zh-CN', 'zh_CN'],
    ['zh-TW', 'en'],
    ['ar', 'ar'],
    ['it-IT', 'en'],
  ])('in UI language %s come from %s, as browser.i18n falls back', (language, file) => {
    expect(eagerWords(table, language, unused)).toEqual(table[file]);
  });

  it('tries the exact locale, then the language alone, then English', () => {
    expect(localeCandidates('pt-BR')).toEqual(['pt_BR', 'pt', 'en']);
    expect(localeCandidates('en')).toEqual(['en']);
  });

  it('ask browser.i18n when the table has neither the language nor English', () => {
    expect(eagerWords({}, 'de', (key) => `asked ${key}`)).toEqual({
      group: 'asked group',
      turn: 'asked turn',
      hide: 'asked hide',
    });
  });
});
