/**
 * One disclaimer per language: every message that ends with the English disclaimer ("Decision
 * support, not financial advice.") ends, in each locale, with that locale's `common.disclaimerLine`,
 * word for word, so a reader never meets two translations of it ("keine Anlageberatung" here,
 * "keine Finanzberatung" there).
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readLocale } from '../../../build/i18nChecks';

const DIR = 'locales';
const english = readLocale(DIR, 'en');
const ENGLISH_LINE = english['common.disclaimerLine'];
/** The messages that carry the disclaimer, found by their English text. */
const carriers = Object.keys(english).filter(
  (key) => key !== 'common.disclaimerLine' && english[key].trim().endsWith(ENGLISH_LINE),
);

describe('the disclaimer', () => {
  it('is carried by several messages (the check has something to check)', () => {
    expect(ENGLISH_LINE).toBe('Decision support, not financial advice.');
    expect(carriers.length).toBeGreaterThan(5);
  });

  const files = readdirSync(DIR)
    .filter((name) => name.endsWith('.yml'))
    .map((name) => name.slice(0, -'.yml'.length));
  it.each(files)('%s says it one way', (file) => {
    const messages = readLocale(DIR, file);
    const line = messages['common.disclaimerLine'].trim();
    const other = carriers.filter(
      (key) => messages[key] !== undefined && !messages[key].trim().endsWith(line),
    );
    expect(other.map((key) => `${key}: ${messages[key]}`)).toEqual([]);
  });
});
