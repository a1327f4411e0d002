/**
 * One word per concept per language: wherever the English names a ticker, the visibility, a
 * backtest, a brokerage account or live automation, the translation uses that locale's one term
 * for it, so the confirm window does not say "الظهور" for what the playbook's detail calls
 * "مستوى الظهور". English placeholders (`{tickers}`) are not words: they are left out.
 */
import { describe, expect, it } from 'vitest';
import { readLocale } from '../../../build/i18nChecks';

const DIR = 'locales';
const english = readLocale(DIR, 'en');

interface Concept {
  /** What the English says for it (placeholders removed first). */
  english: RegExp;
  /** The locale's one term, in any of its grammatical forms. */
  term: RegExp;
}

/** The account linked for live automation; "a page of your brokerage" (the firm) is another concept. */
const BROKERAGE_ACCOUNT = /\bbrokerage (account|link)\b|\blink a brokerage\b/i;

const CONCEPTS: Record<string, Record<string, Concept>> = {
  ar: {
    tickers: { english: /\bticker/i, term: /رموز (ال)?أسهم|رمز السهم/ },
    visibility: { english: /\bvisibility\b/i, term: /مستوى الظهور/ },
    // Any case ending: "اختبارًا رجعيًا" is the same term.
    backtest: { english: /\bbacktest/i, term: /اختبار\S*\s+(ال)?رجعي/ },
    brokerage: { english: BROKERAGE_ACCOUNT, term: /حساب\S* (ال)?وساطة/ },
    'live automation': { english: /\blive automation\b/i, term: /التداول الآلي المباشر/ },
  },
  de: {
    tickers: { english: /\bticker/i, term: /Ticker/ },
    visibility: { english: /\bvisibility\b/i, term: /Sichtbarkeit/ },
    backtest: { english: /\bbacktest/i, term: /Backtest/ },
    brokerage: { english: BROKERAGE_ACCOUNT, term: /Depot/ },
  },
  ja: {
    tickers: { english: /\bticker/i, term: /銘柄/ },
    visibility: { english: /\bvisibility\b/i, term: /公開範囲/ },
    backtest: { english: /\bbacktest/i, term: /バックテスト/ },
    brokerage: { english: BROKERAGE_ACCOUNT, term: /証券口座/ },
  },
};

const words = (text: string) => text.replace(/\{\w+\}/g, '');

describe('one term per concept', () => {
  const cases = Object.entries(CONCEPTS).flatMap(([locale, concepts]) =>
    Object.entries(concepts).map(([name, concept]) => [locale, name, concept] as const),
  );
  it.each(cases)('%s: %s', (locale, _name, concept) => {
    const messages = readLocale(DIR, locale);
    const naming = Object.keys(english).filter((key) => concept.english.test(words(english[key])));
    // The check has something to check.
    expect(naming.length).toBeGreaterThan(1);
    const other = naming.filter((key) => messages[key] !== undefined && !concept.term.test(messages[key]));
    expect(other.map((key) => `${key}: ${messages[key]}`)).toEqual([]);
  });
});
