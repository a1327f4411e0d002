import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldErrors } from '@/lib/messaging';
import { useLocale } from '../../fixtures/i18n';

const draft = z.object({
  title: z.string().min(1, 'Title is required.'),
  tickers: z.array(z.string().regex(/^[A-Z]+$/, 'Use upper-case symbols.')),
});

function errorOf(schema: z.ZodType, value: unknown): z.ZodError {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('expected a failure');
  return parsed.error;
}

describe('fieldErrors', () => {
  it('names each field by its dotted path, first message per path', () => {
    const error = errorOf(draft, { title: '', tickers: ['ok', 'AAPL', 'no'] });
    // The words come from the locale by the code: schemas that also run in content
    // scripts carry no translations.
    expect(fieldErrors(error)).toEqual({
      title: 'Must not be empty.',
      'tickers.0': 'Not in the expected form.',
      'tickers.2': 'Not in the expected form.',
    });
  });

  it('speaks the UI language, with the bound formatted there', () => {
    useLocale('de');
    const long = errorOf(z.object({ thesis: z.string().max(4000) }), { thesis: 'x'.repeat(4001) });
    expect(fieldErrors(long)).toEqual({ thesis: 'Höchstens 4.000 Zeichen.' });
  });

  it.each([
    ['the default root', undefined, '(message)'],
    ['a named root', 'body', 'body'],
  ])('an issue about the whole value goes under %s', (_name, root, key) => {
    const fields = fieldErrors(errorOf(draft, 'not an object'), root);
    expect(Object.keys(fields)).toEqual([key]);
  });

  it('a field named like an Object.prototype member is a field like any other', () => {
    const schema = z.object({ constructor: z.string(), toString: z.string() });
    const fields = fieldErrors(errorOf(schema, { constructor: 1, toString: 2 }));
    expect(Object.keys(fields).sort()).toEqual(['constructor', 'toString']);
  });

  it('names at most 20 fields, as a draft refused from a page did before', () => {
    const schema = z.object({ tickers: z.array(z.string().regex(/^[A-Z]+$/)) });
    const fields = fieldErrors(errorOf(schema, { tickers: Array.from({ length: 500 }, () => 'no') }));
    expect(Object.keys(fields)).toHaveLength(20);
    expect(fields['tickers.0']).toBe('Not in the expected form.');
  });
});
