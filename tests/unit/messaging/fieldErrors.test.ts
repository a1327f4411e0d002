import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldErrors } from '@/lib/messaging';

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
    expect(fieldErrors(error)).toEqual({
      title: 'Title is required.',
      'tickers.0': 'Use upper-case symbols.',
      'tickers.2': 'Use upper-case symbols.',
    });
  });

  it.each([
    ['the default root', undefined, '(message)'],
    ['a named root', 'body', 'body'],
  ])('an issue about the whole value goes under %s', (_name, root, key) => {
    const fields = fieldErrors(errorOf(draft, 'not an object'), root);
    expect(Object.keys(fields)).toEqual([key]);
  });
});
