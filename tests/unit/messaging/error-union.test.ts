import { describe, expect, expectTypeOf, it } from 'vitest';
import { API_ERROR_KINDS } from '@/lib/contract/api';
import { LIFECYCLE_CODES } from '@/lib/contract/writes';
import {
  MESSAGING_ERROR_CODES,
  WORKER_ERROR_CODES,
  type MessageErrorCode,
  type WireError,
} from '@/lib/contract/wire';
import { ERRORS, isMessageErrorCode, knownCode, meaningOf } from '@/lib/messaging/errors';

describe('one closed union of error codes, one table', () => {
  it('rejects a code no table knows, at compile time (`npm run typecheck` checks the expect-error lines)', () => {
    // @ts-expect-error: not a code of the union
    const unknown: MessageErrorCode = 'nothing-stored';
    // @ts-expect-error: an API kind has one spelling, `api.<kind>`
    const bare: MessageErrorCode = 'unauthorized';
    // @ts-expect-error: a wire error's code is the union, not any string
    const wire: WireError = { code: 'made-up', message: 'm' };
    expectTypeOf<'api.unauthorized'>().toExtend<MessageErrorCode>();
    expectTypeOf<string>().not.toExtend<MessageErrorCode>();
    expect([unknown, bare, wire.code].some(isMessageErrorCode)).toBe(false);
  });

  it('the table has a row for every code of the union, and no other', () => {
    const union = [
      ...MESSAGING_ERROR_CODES,
      ...WORKER_ERROR_CODES,
      ...LIFECYCLE_CODES,
      ...API_ERROR_KINDS.map((kind) => `api.${kind}`),
    ];
    expect(Object.keys(ERRORS).sort()).toEqual([...new Set(union)].sort());
    for (const code of union) expect(meaningOf(code)).toBe(ERRORS[code as MessageErrorCode]);
  });

  it('reads a bare kind an earlier version stored as its one spelling, and nothing else', () => {
    expect(knownCode('forbidden')).toBe('api.forbidden');
    expect(knownCode('api.forbidden')).toBe('api.forbidden');
    expect(knownCode('toString')).toBeUndefined();
    expect(knownCode('__proto__')).toBeUndefined();
  });
});

describe('what the table says of reads', () => {
  it('a cached view stands in for a service that is away, slow, busy or unreadable, never for a refused key', () => {
    const standIn = Object.entries(ERRORS)
      .filter(([, meaning]) => meaning.cachedStandsIn)
      .map(([code]) => code)
      .sort();
    expect(standIn).toEqual([
      'api.deferred',
      'api.document-refused',
      'api.malformed-response',
      'api.network',
      'api.rate-limited',
      'api.server',
      'api.timeout',
    ]);
  });
});
