import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { backtestMetricsSchema, equityPointSchema } from '@/lib/contract/backtest';
import { serviceUrlProblem } from '@/lib/contract/origins';
import { playbookDraftSchema } from '@/lib/finance/schema';
import { parseSitePattern } from '@/lib/finance/sites';
import { DRAFT_LIMITS } from '@/lib/finance/text';
import { fieldProblemText, firstPerField, siteProblemText, urlProblemText } from '@/lib/i18n/problems';
import { chromeMessages, useLocale } from '../../fixtures/i18n';

describe('the words for refused URLs and site addresses follow the UI language', () => {
  it('says a plain-http remote service is refused, in German', () => {
    useLocale('de');
    const problem = serviceUrlProblem('http://svc.example.com');
    expect(problem).toBe('insecure');
    expect(urlProblemText(problem!)).toBe(
      'Verwenden Sie https für einen Dienst, der nicht auf diesem Computer läuft.',
    );
  });

  it('quotes what the user typed as typed, even when it looks like a placeholder', () => {
    useLocale('fr');
    const result = parseSitePattern('{input}$1.-bad-.com');
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(siteProblemText(result.problem, result.input)).toContain('« {input}$1.-bad-.com »');
  });
});

describe('a field problem is worded from its zod code and origin', () => {
  const en = (key: string) => chromeMessages('en')[key.replaceAll('.', '_')].message;
  const first = (schema: z.ZodType, value: unknown) => {
    const parsed = schema.safeParse(value);
    expect(parsed.success).toBe(false);
    return parsed.error!.issues[0];
  };

  it('a number out of its bounds is out of bounds, not "at most N characters"', () => {
    useLocale('en');
    const tooHigh = first(equityPointSchema, { date: '2025-01-02', value: 10_001, benchmark: 1 });
    expect(tooHigh.code).toBe('too_big');
    expect(fieldProblemText(tooHigh)).toBe(en('errors.field.outOfBounds'));
    const metrics = { total_return: 0, benchmark_return: 0, cagr: 0, sharpe: 0, volatility: 0 };
    const drawdown = first(backtestMetricsSchema, { ...metrics, max_drawdown: 0.2 });
    expect(fieldProblemText(drawdown)).toBe(en('errors.field.outOfBounds'));
    const negative = first(backtestMetricsSchema, { ...metrics, max_drawdown: -0.2, volatility: -1 });
    expect(negative.code).toBe('too_small');
    expect(fieldProblemText(negative)).toBe(en('errors.field.outOfBounds'));
    expect(fieldProblemText(first(z.date().max(new Date(0)), new Date(1)))).toBe(
      en('errors.field.outOfBounds'),
    );
  });

  it('strings count characters; arrays and sets count entries', () => {
    useLocale('en');
    expect(fieldProblemText(first(z.string().min(1), ''))).toBe('Must not be empty.');
    expect(fieldProblemText(first(z.string().max(3), 'abcd'))).toBe('At most 3 characters.');
    expect(fieldProblemText(first(z.string().min(3), 'ab'))).toBe('At least 3 characters.');
    expect(fieldProblemText(first(z.array(z.number()).min(2), [1]))).toBe('At least 2 entries.');
    expect(fieldProblemText(first(z.array(z.number()).min(1), []))).toBe('Required.');
    expect(fieldProblemText(first(z.array(z.number()).max(1), [1, 2]))).toBe('At most 1 entries.');
    expect(fieldProblemText(first(z.set(z.number()).min(1), new Set()))).toBe('Required.');
    expect(fieldProblemText(first(z.set(z.number()).max(1), new Set([1, 2])))).toBe('At most 1 entries.');
  });

  it('a wrong type and a value not among the allowed ones have their own words', () => {
    useLocale('de');
    const de = (key: string) => chromeMessages('de')[key.replaceAll('.', '_')].message;
    expect(fieldProblemText(first(z.number(), 'x'))).toBe(de('errors.field.type'));
    expect(fieldProblemText(first(z.enum(['a', 'b']), 'c'))).toBe(de('errors.field.notAllowedValue'));
    expect(fieldProblemText(first(z.literal('a'), 'c'))).toBe(de('errors.field.notAllowedValue'));
  });

  it('extra keys are named: the first three, each clipped', () => {
    useLocale('en');
    const strict = z.strictObject({ a: z.number() });
    expect(fieldProblemText(first(strict, { a: 1, extra: 2 }))).toBe('Fields not allowed here: extra.');
    const long = 'k'.repeat(500);
    const text = fieldProblemText(first(strict, { a: 1, b: 1, c: 1, [long]: 1, d: 1, e: 1 }));
    expect(text).toBe(`Fields not allowed here: b, c, ${'k'.repeat(39)}…, ….`);
  });

  it('a draft text far beyond its bound is worded with the real bound, not the early check’s', () => {
    useLocale('en');
    const parsed = playbookDraftSchema.safeParse({
      title: 'x'.repeat(DRAFT_LIMITS.title * 4 + 1),
      thesis: 'Thesis.',
      tickers: ['NVDA'],
      visibility: 'private',
      source: { url: 'https://news.example/a', title: '', excerpt: '' },
    });
    expect(parsed.success).toBe(false);
    const issue = parsed.error!.issues.find((each) => each.path.join('.') === 'title')!;
    expect(fieldProblemText(issue)).toBe(`At most ${DRAFT_LIMITS.title} characters.`);
    // Just over the bound (after cleaning) says the same.
    const near = playbookDraftSchema.shape.title.safeParse('x'.repeat(DRAFT_LIMITS.title + 1));
    expect(fieldProblemText(near.error!.issues[0])).toBe(`At most ${DRAFT_LIMITS.title} characters.`);
  });
});

describe('firstPerField', () => {
  const items = [
    ['a', 'first a'],
    ['__proto__', 'proto'],
    ['a', 'second a'],
    ['skip', 'skipped'],
    ['b', 'b'],
    ['c', 'c'],
  ] as const;
  it('keeps the first words per field, own properties only, and asks words for those alone', () => {
    const asked: string[] = [];
    const fields = firstPerField(
      items,
      ([field]) => (field === 'skip' ? undefined : field),
      ([, words]) => {
        asked.push(words);
        return words;
      },
    );
    expect(fields).toEqual({ a: 'first a', ['__proto__']: 'proto', b: 'b', c: 'c' });
    expect(Object.hasOwn(fields, '__proto__')).toBe(true);
    expect(asked).toEqual(['first a', 'proto', 'b', 'c']);
  });
  it('stops at max fields', () => {
    const fields = firstPerField(
      items,
      ([field]) => field,
      ([, words]) => words,
      2,
    );
    expect(Object.keys(fields)).toEqual(['a', '__proto__']);
  });
});
