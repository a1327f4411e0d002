import { Validator } from '@cfworker/json-schema';
import { format as cfworkerFormats } from '@cfworker/json-schema';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import { isLinearServicePattern } from '@/lib/api/servicePattern';
import { LINEAR_FORMATS, sanitizeServiceSchema } from '@/lib/api/serviceSchema';
import { setLogSink, type LogRecord } from '@/lib/log';
import { fill, MB } from '../../fixtures/hostile/parsers';
import { cpuNow, linearBound } from '../../fixtures/linearTime';
import {
  checkerFor,
  documentWith,
  draft,
  refFanOut,
  setThesis,
  VALIDATION_CASES,
} from '../../fixtures/hostile/validation';

// A 2,000-character thesis that a backtracking pattern cannot match: the realistic worst case.
const THESIS = `${'a'.repeat(2_000)}!`;
// The bounds only catch super-linear time, in linear passes timed here and now: linear work on these
// inputs costs a few passes over a megabyte, a backtracking pattern on the thesis never ends.
const fastBound = () => linearBound(THESIS, 1_000);
const megabyteBound = (input = '') => linearBound(input, 2_000);

function timed<T>(work: () => T): { result: T; ms: number } {
  const started = cpuNow();
  const result = work();
  return { result, ms: cpuNow() - started };
}

/** Time the unguarded validator takes on the raw schema: the attack as it was. */
function rawMs(schema: Record<string, unknown>, body: unknown): number {
  const validator = new Validator(schema, '2020-12', false);
  return timed(() => validator.validate(body)).ms;
}

let logs: LogRecord[] = [];
let restoreLog: () => void;
beforeEach(() => {
  logs = [];
  restoreLog = setLogSink((record) => logs.push(record));
});
afterEach(() => restoreLog());

describe('the attacks, reproduced on the unguarded validator with short inputs', () => {
  // Each takes microseconds at 12 characters and grows by a constant factor per added character.
  it.each([
    ['pattern ^(a+)+$', { type: 'string', pattern: '^(a+)+$' }, (n: number) => `${'a'.repeat(n)}!`, 24],
    ['pattern (x+x+)+y', { type: 'string', pattern: '(x+x+)+y' }, (n: number) => 'x'.repeat(n), 24],
    ['format url', { type: 'string', format: 'url' }, (n: number) => `http://${'a'.repeat(n)}!`, 26],
  ])('%s grows exponentially', (_name, schema, input, long) => {
    rawMs(schema, input(8)); // warm up
    const short = Math.max(rawMs(schema, input(12)), 0.05);
    const longer = rawMs(schema, input(long));
    expect(longer / short).toBeGreaterThan(20);
  });

  it('allOf over $ref doubles the work per level', () => {
    const raw = documentWith(refFanOut(16)) as { components: Record<string, unknown> };
    const schema = { $ref: '#/components/schemas/L0', components: raw.components };
    const small = (documentWith(refFanOut(8)) as { components: Record<string, unknown> }).components;
    const short = Math.max(rawMs({ $ref: '#/components/schemas/L0', components: small }, 'x'), 0.05);
    expect(rawMs(schema, 'x') / short).toBeGreaterThan(20);
  });
});

describe('validateRequestBody against a hostile document', () => {
  it.each([
    ['pattern ^(a+)+$', { type: 'string', pattern: '^(a+)+$' }],
    ['pattern (x+x+)+y', { type: 'string', pattern: '(x+x+)+y' }],
    ['format url', { type: 'string', format: 'url' }],
    ['format regex', { type: 'string', format: 'regex' }],
    ['a bad pattern under not', { type: 'string', not: { pattern: '^(a|a)*$' } }],
    [
      'a bad pattern in a oneOf branch',
      { oneOf: [{ type: 'string', pattern: '^(a+)+$' }, { type: 'number' }] },
    ],
    ['a bad pattern in if', { if: { pattern: '^(a+)+$' }, then: { maxLength: 1 } }],
  ])('%s: the realistic draft is checked in linear time and not refused', (_name, thesis) => {
    const { check } = checkerFor(documentWith(setThesis(thesis)));
    const { result, ms } = timed(() => check(draft(THESIS)));
    expect(result).toBeUndefined();
    expect(ms).toBeLessThan(fastBound());
    expect(logs.some((record) => record.event === 'api.validate.schema-loosened')).toBe(true);
  });

  it('patternProperties and propertyNames with bad regexes are dropped without tightening additionalProperties', () => {
    const { check } = checkerFor(
      documentWith((schemas) => {
        Object.assign(schemas.NewPlaybook, {
          patternProperties: { '^(t+)+$': { type: 'string' } },
          propertyNames: { pattern: '^([a-z]+)+$' },
          unevaluatedProperties: false,
        });
      }),
    );
    const { result, ms } = timed(() => check(draft(THESIS)));
    expect(result).toBeUndefined();
    expect(ms).toBeLessThan(fastBound());
  });

  it('the rest of a loosened schema still checks', () => {
    const { check } = checkerFor(
      documentWith(setThesis({ type: 'string', pattern: '^(a+)+$', maxLength: 10 })),
    );
    const error = check(draft(THESIS)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.fieldErrors).toEqual({ '/thesis': expect.any(String) });
    expect((check({ ...draft('short'), tickers: ['nvda'] }) as ApiError).fieldErrors).toEqual({
      '/tickers/0': expect.any(String),
    });
  });

  it.each([['allOf'], ['anyOf'], ['oneOf']] as const)(
    '40 levels of %s over $ref: skipped as too complex, the send goes on',
    (keyword) => {
      const { check } = checkerFor(documentWith(refFanOut(40, keyword)));
      const { result, ms } = timed(() => check(draft(THESIS)));
      expect(result).toBeUndefined();
      expect(ms).toBeLessThan(fastBound());
      expect(logs).toContainEqual(
        expect.objectContaining({
          event: 'api.validate.schema-skipped',
          fields: expect.objectContaining({ operationId: 'createPlaybook' }),
        }),
      );
    },
  );

  it('a few levels of fan-out stay within the bounds and are checked', () => {
    const { check } = checkerFor(documentWith(refFanOut(6)));
    expect(check(draft(THESIS))).toBeUndefined();
    expect((check(draft('')) as ApiError).fieldErrors).toEqual({ '/thesis': expect.any(String) });
  });

  it('a $ref loop that never reaches a value is refused as unusable, not a stack overflow', () => {
    const { check } = checkerFor(
      documentWith((schemas) => {
        schemas.Loop = { allOf: [{ $ref: '#/components/schemas/Loop' }] };
        setThesis({ $ref: '#/components/schemas/Loop' })(schemas);
      }),
    );
    const error = check(draft('t')) as ApiError;
    expect(error.kind).toBe('validation');
    expect(error.message).toMatch(/createPlaybook was not sent: its request schema .* cannot be used/);
  });

  it('a recursive schema through properties is fine: the draft bounds its depth', () => {
    const { check } = checkerFor(
      documentWith((schemas) => {
        schemas.Tree = { type: 'object', properties: { child: { $ref: '#/components/schemas/Tree' } } };
        (schemas.NewPlaybook.properties as Record<string, unknown>).source = {
          $ref: '#/components/schemas/Tree',
        };
      }),
    );
    expect(check({ ...draft('t'), source: { child: { child: {} } } })).toBeUndefined();
    expect((check({ ...draft('t'), source: { child: 1 } }) as ApiError).fieldErrors).toEqual({
      '/source/child': expect.any(String),
    });
  });

  it('a schema nested 100,000 deep is skipped without overflowing the stack', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100_000; i += 1) deep = { allOf: [deep] };
    const { check } = checkerFor(documentWith(setThesis(deep)));
    const { result, ms } = timed(() => check(draft('t')));
    expect(result).toBeUndefined();
    expect(ms).toBeLessThan(megabyteBound());
  });

  it('an enum of 1 MB is skipped as too complex', () => {
    const { check } = checkerFor(
      documentWith(setThesis({ enum: Array.from({ length: 200_000 }, (_, i) => `v${i}`) })),
    );
    const { result, ms } = timed(() => check(draft('t')));
    expect(result).toBeUndefined();
    expect(ms).toBeLessThan(megabyteBound());
  });

  it('the sandbox-shaped schema checks a 1 MB draft in linear time, ticker pattern included', () => {
    const { check } = checkerFor(documentWith());
    const body = { ...draft(fill('a')), tickers: Array.from({ length: 20 }, () => 'BRK.B') };
    const { result, ms } = timed(() => check(body));
    expect(result).toBeUndefined();
    expect(ms).toBeLessThan(megabyteBound());
    expect((check({ ...body, tickers: ['brk'] }) as ApiError).fieldErrors).toEqual({
      '/tickers/0': expect.any(String),
    });
  });

  it.each(VALIDATION_CASES.map((c) => [c.shape, c] as const))(
    'bench case %s: under the 1 MB bound',
    async (_shape, hostile) => {
      const input = hostile.input();
      expect(input.length).toBeGreaterThanOrEqual(MB * 0.9);
      const started = cpuNow();
      expect(await hostile.run(input)).toBeUndefined();
      expect(cpuNow() - started).toBeLessThan(megabyteBound(input));
    },
  );
});

describe('sanitizeServiceSchema', () => {
  it('a key named __proto__ stays a property name', () => {
    const { schema } = sanitizeServiceSchema(
      {},
      JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'),
    );
    const properties = (schema as { properties: object }).properties;
    expect(Object.keys(properties)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
  });

  it('keeps the safe parts and names what it dropped', () => {
    const sanitized = sanitizeServiceSchema(
      {},
      { type: 'array', uniqueItems: true, items: { type: 'string', pattern: '^(a+)+$', format: 'date' } },
    );
    expect(sanitized.schema).toEqual({ type: 'array', items: { type: 'string', format: 'date' }, $defs: {} });
    expect(sanitized.dropped.sort()).toEqual(['pattern', 'uniqueItems']);
  });
});

describe('isLinearServicePattern', () => {
  it.each([
    '^[A-Z][A-Z0-9.]{0,9}$',
    '^[A-Z0-9][A-Z0-9.-]{0,11}$',
    '^\\d{4}-\\d{2}-\\d{2}$',
    '^[A-Z0-9.\\-^]{1,12}$',
    '^[a-z]+(?:-[0-9]+)?$',
    '^(?:USD|EUR|GBP)$',
    '^[^@\\s]+@[^@\\s]+$',
    '^\\S+$',
  ])('accepts %s', (pattern) => expect(isLinearServicePattern(pattern)).toBe(true));

  it.each([
    ['nested quantifiers', '^(a+)+$'],
    ['overlapping repetitions', '(x+x+)+y'],
    ['unanchored: every start position is tried', 'a*b'],
    ['anchored on one side only', '^a+'],
    ['anchors bound to branches', '^a|b$'],
    ['ambiguous alternatives in a loop', '^(a|a)*$'],
    ['adjacent overlapping repetitions', '^[a-z]*[a-z0-9]*$'],
    ['alternatives sharing a prefix', '^(?:ab|ac)$'],
    ['an empty loop', '^(?:a?)*$'],
    ['two empty branches', '^(?:|)(?:|)x$'],
    ['a backreference', '^(a)\\1$'],
    ['a lookahead', '^(?=a)a$'],
    ['a named group', '^(?<n>a)$'],
    ['a Unicode property', '^\\p{L}+$'],
    ['a lazy quantifier', '^a+?$'],
    ['a huge count', '^a{1,5000}$'],
    ['an escaped final $', '^a\\$'],
    ['too long', `^${'a'.repeat(300)}$`],
    ['not a string', 42],
    ['invalid', '^(a$'],
  ])('refuses %s', (_why, pattern) => expect(isLinearServicePattern(pattern)).toBe(false));

  it('every accepted pattern runs in linear time on 1 MB of hostile text', () => {
    const accepted = [
      '^[A-Z0-9][A-Z0-9.-]{0,11}$',
      '^[a-z]+(?:-[0-9]+)?$',
      '^[^@\\s]+@[^@\\s]+$',
      '^\\S+$',
      '^.*x$',
    ];
    for (const pattern of accepted.filter((p) => isLinearServicePattern(p))) {
      const regex = new RegExp(pattern, 'u');
      for (const input of [
        `${fill('a', MB)}!`,
        `${fill('a-1', MB)}-!`,
        `${fill('a@', MB)}`,
        fill(' a', MB),
      ]) {
        expect(timed(() => regex.test(input)).ms).toBeLessThan(megabyteBound(input));
      }
    }
  });
});

describe('formats kept from a service schema', () => {
  const hostileInputs = [
    `${fill('a', MB)}!`,
    `http://${fill('a-', MB)}!`,
    `a:${fill('/', MB)}\u0000`,
    `${fill('1', MB)}!`,
    `P${fill('1', MB)}!`,
    `a@${fill('a.', MB)}!`,
    `${fill('%aa', MB)}%`,
  ];
  it.each([...LINEAR_FORMATS])('format %s is linear on 1 MB of hostile text', (name) => {
    const check = cfworkerFormats[name];
    expect(check).toBeTypeOf('function');
    for (const input of hostileInputs)
      expect(timed(() => check(input)).ms).toBeLessThan(megabyteBound(input));
  });
});
