import { describe, expect, it } from 'vitest';
import { visibilitySchema } from '@/lib/api/schemas';
import { isVisibility, VISIBILITIES } from '@/lib/contract/visibility';
import { messages } from '@/lib/messaging/protocol';

describe('isVisibility', () => {
  it.each(VISIBILITIES.map((v) => [v]))('accepts %s', (value) => {
    expect(isVisibility(value)).toBe(true);
  });

  it.each([['Public'], ['secret'], [''], [' private'], [null], [undefined], [0], [['public']], [{}]])(
    'refuses %j',
    (value) => {
      expect(isVisibility(value)).toBe(false);
    },
  );

  it('is the list the response schema and the popup list message accept', () => {
    expect(visibilitySchema.options).toEqual([...VISIBILITIES]);
    for (const visibility of VISIBILITIES)
      expect(messages.listPlaybooks.request.safeParse({ visibility }).success).toBe(true);
    expect(messages.listPlaybooks.request.safeParse({ visibility: 'secret' }).success).toBe(false);
  });
});
