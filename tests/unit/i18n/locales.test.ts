/**
 * Every file in locales/ against en.yml (the source locale): the same keys, the same
 * placeholders, the plural forms the language needs, `$$` for a dollar, no sentence left in
 * English, no key that nothing uses. The checks live in build/i18nChecks.ts; the second half of
 * this file proves each one fails on a small bad locale.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkDollars,
  checkKeys,
  checkPlaceholders,
  checkPluralCategories,
  checkTranslated,
  checkUnused,
  localeFiles,
  readLocale,
  readSources,
  type Messages,
} from '../../../build/i18nChecks';

const ROOT = resolve(__dirname, '../../..');
const LOCALES = resolve(ROOT, 'locales');
const FILES = localeFiles(LOCALES);
const OTHERS = FILES.filter((file) => file !== 'en');
const en = readLocale(LOCALES, 'en');

/**
 * Keys whose translation may equal the English: names, not language. Keep this short; a key
 * belongs here only when a native speaker would write the same words.
 */
const SAME_IN_EVERY_LANGUAGE = new Set(['manifest.name']);

/** The languages the extension ships: a file lost from locales/ is a failure. */
const SHIPPED = ['ar', 'de', 'en', 'es', 'fr', 'ja', 'pt_BR', 'zh_CN'];

describe('locales/', () => {
  it('has en.yml, and every file is named as Chrome names a locale (de, pt_BR)', () => {
    expect(FILES).toEqual(expect.arrayContaining(SHIPPED));
    for (const file of FILES) expect(file).toMatch(/^[a-z]{2}(_[A-Z]{2})?$/);
  });

  it.each(FILES)('%s parses, and every plural group has the forms its language selects', (file) => {
    expect(checkPluralCategories(file, readLocale(LOCALES, file))).toEqual([]);
  });

  it.each(FILES)('%s writes a dollar sign as $$', (file) => {
    expect(checkDollars(file, readLocale(LOCALES, file))).toEqual([]);
  });

  it.each(OTHERS)('%s has exactly the keys of en.yml', (file) => {
    expect(checkKeys(file, en, readLocale(LOCALES, file))).toEqual([]);
  });

  it.each(OTHERS)('%s has the placeholders of en.yml', (file) => {
    expect(checkPlaceholders(file, en, readLocale(LOCALES, file))).toEqual([]);
  });

  it.each(OTHERS)('%s leaves no sentence in English', (file) => {
    expect(checkTranslated(file, en, readLocale(LOCALES, file), SAME_IN_EVERY_LANGUAGE)).toEqual([]);
  });

  it('every key of en.yml is used by the sources', () => {
    const sources = readSources(ROOT, ['lib', 'components', 'entrypoints', 'wxt.config.ts']);
    expect(checkUnused(en, sources, new Set())).toEqual([]);
  });
});

describe('the checks fail on a bad locale', () => {
  const source: Messages = {
    'popup.title': 'Your playbooks',
    'popup.greeting': 'Hello {name}, you have {count} alerts',
    'popup.price': 'Costs $$5',
    'common.items.one': '{count} item in {list}',
    'common.items.other': '{count} items',
  };

  it('names a missing key, an extra key and a plural group that became a plain message', () => {
    const de: Messages = {
      'popup.greeting': 'Hallo {name}, Sie haben {count} Hinweise',
      'popup.price': 'Kostet 5 $$',
      'popup.extra': 'Überflüssig',
      'common.items': '{count} Einträge',
    };
    expect(checkKeys('de', source, de)).toEqual([
      'de: popup.title is missing (en has it)',
      'de: popup.extra is not in en.yml',
      'de: common.items is not a plural group, unlike en',
    ]);
    const { 'common.items': _plain, ...withoutGroup } = de;
    expect(checkKeys('de', source, withoutGroup)).toContain('de: common.items is missing (en has it)');
  });

  it('names a message whose placeholders differ, and compares a plural group by the union of its forms', () => {
    const de: Messages = {
      'popup.title': 'Ihre Playbooks',
      'popup.greeting': 'Hallo {nom}, Sie haben {count} Hinweise',
      'popup.price': 'Kostet 5 $$',
      // {list} only in `other` still counts: the union is {count, list}.
      'common.items.one': '{count} Eintrag',
      'common.items.other': '{count} Einträge in {list}',
    };
    expect(checkPlaceholders('de', source, de)).toEqual([
      'de: popup.greeting has placeholders {count, nom}, en has {count, name}',
    ]);
    const fixed = { ...de, 'popup.greeting': 'Hallo {name}, Sie haben {count} Hinweise' };
    expect(checkPlaceholders('de', source, { ...fixed, 'common.items.other': '{count} Einträge' })).toEqual([
      'de: common.items has placeholders {count}, en has {count, list}',
    ]);
  });

  it('names a plural form the language needs and one it never selects', () => {
    expect(checkPluralCategories('ar', { 'common.items.one': 'x', 'common.items.other': 'y' })).toEqual([
      'ar: common.items lacks the plural form(s) few, many, two, zero',
    ]);
    expect(checkPluralCategories('ja', { 'common.items.one': 'x', 'common.items.other': 'y' })).toEqual([
      'ja: common.items has plural form(s) one that ja never selects',
    ]);
    expect(checkPluralCategories('pt_BR', { 'common.items.one': 'x', 'common.items.other': 'y' })).toEqual([
      'pt_BR: common.items lacks the plural form(s) many',
    ]);
  });

  it('names a lone dollar sign and accepts $$', () => {
    expect(checkDollars('en', { 'a.b': 'Costs $5', 'a.c': 'Costs $$5', 'a.d': '$$$$AAPL' })).toEqual([
      'en: a.b has a lone $ (write $$ for a dollar sign)',
    ]);
    expect(checkDollars('en', { 'a.b': '$$$' })).toEqual([
      'en: a.b has a lone $ (write $$ for a dollar sign)',
    ]);
  });

  it('names a sentence left in English, but not a short label or an allowed name', () => {
    const fr: Messages = {
      'popup.title': 'Your playbooks',
      'popup.greeting': 'Hello {name}, you have {count} alerts',
      'popup.price': 'Costs $$5',
      // Placeholders are not words: one word ("vs") may stay.
      'backtests.range': '{start} – {end} vs {benchmark}',
    };
    const withRange = { ...source, 'backtests.range': '{start} – {end} vs {benchmark}' };
    expect(checkTranslated('fr', withRange, fr, new Set(['popup.price']))).toEqual([
      'fr: popup.greeting is still the English "Hello {name}, you have {count} alerts"',
    ]);
  });

  it('names a key no source uses; plural forms by their group, manifest keys by __MSG_, templates by prefix', () => {
    const keys: Messages = {
      ...source,
      'manifest.name': 'Playbook Companion',
      'errors.network': 'Offline',
      'errors.timeout': 'Too slow',
    };
    const sources = [
      't(\'popup.title\'); plural("common.items", n);',
      "name: '__MSG_manifest_name__'",
      't(`errors.${code}`)',
    ].join('\n');
    expect(checkUnused(keys, sources)).toEqual([
      'en: popup.greeting is used nowhere in the sources',
      'en: popup.price is used nowhere in the sources',
    ]);
  });
});
