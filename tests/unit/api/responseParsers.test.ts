import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { knownResponseSchema, parseKnownShape, type ApiError } from '@/lib/api';
import { INVALID, responseParsers } from '@/lib/api/responseParsers.generated';
import {
  COMPILED_OPERATIONS,
  GENERATED_PATH,
  generateResponseParsers,
} from '../../../scripts/responseParsers';
import { playbook } from './support';

function page(extra: Record<string, unknown> = {}) {
  return {
    data: [playbook('pb_1'), playbook('pb_2', { source: { url: 'https://a.test', title: 'A' } })],
    has_more: true,
    next_cursor: 'c_2',
    ...extra,
  };
}

/** Every place in a page where a hostile service could put the wrong thing. */
const FIELD_PATHS: (string | number)[][] = [
  [],
  ['data'],
  ['has_more'],
  ['next_cursor'],
  ['data', 0],
  ...[
    'id',
    'title',
    'thesis',
    'visibility',
    'status',
    'tickers',
    'source',
    'owner',
    'created_at',
    'updated_at',
    'etag',
  ].map((field) => ['data', 1, field]),
  ['data', 1, 'tickers', 0],
  ['data', 1, 'source', 'url'],
  ['data', 1, 'owner', 'name'],
];
const SUBSTITUTES: unknown[] = [
  undefined,
  null,
  0,
  1.5,
  Number.NaN,
  '',
  'x',
  '\ud83d',
  '😀',
  true,
  [],
  {},
  ['a'],
];

function withValueAt(path: (string | number)[], value: unknown, deleteKey: boolean): unknown {
  if (path.length === 0) return value;
  const root = structuredClone(page()) as Record<string | number, unknown>;
  let parent = root;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (deleteKey) delete parent[last];
  else parent[last] = value;
  return root;
}

const cases: [string, unknown][] = [
  ['a valid page', page()],
  ['the last page', page({ has_more: false, next_cursor: null })],
  ['an empty page', page({ data: [] })],
  [
    'unknown keys at every level',
    JSON.parse(
      '{"data":[{"id":"p","title":"t","thesis":"","visibility":"public","status":"active","tickers":[],"owner":{"id":"u","name":"n","extra":1},"created_at":"a","updated_at":"b","etag":"e","__proto__":{"polluted":true},"constructor":1}],"has_more":false,"next_cursor":null,"__proto__":{"polluted":true}}',
    ),
  ],
  ...FIELD_PATHS.flatMap((path) => [
    [`${path.join('/') || 'the body'} missing`, withValueAt(path, undefined, true)] as [string, unknown],
    ...SUBSTITUTES.map(
      (value) =>
        [`${path.join('/') || 'the body'} = ${String(value)}`, withValueAt(path, value, false)] as [
          string,
          unknown,
        ],
    ),
  ]),
];

describe('the compiled response parsers', () => {
  it('are what zod compiles from the current schemas (regenerate with npx tsx scripts/responseParsers.ts)', async () => {
    expect(readFileSync(GENERATED_PATH, 'utf8')).toBe(await generateResponseParsers());
  });

  it.each(COMPILED_OPERATIONS)(
    '%s: accept exactly what zod accepts and give the same output',
    (operationId) => {
      const schema = knownResponseSchema(operationId);
      const parser = responseParsers[operationId];
      expect(schema && parser).toBeTruthy();
      for (const [name, input] of cases) {
        const expected = schema!.safeParse(input);
        const compiled = parser(input);
        if (expected.success) expect(compiled, name).toStrictEqual(expected.data);
        else expect(compiled, name).toBe(INVALID);
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );

  it('leave the message to zod: a refused page still names the bad field', () => {
    const bad = page();
    (bad.data[1] as Record<string, unknown>).visibility = 'everyone';
    let error: ApiError | undefined;
    try {
      parseKnownShape(knownResponseSchema('listPlaybooks')!, bad, 'listPlaybooks', 200);
    } catch (caught) {
      error = caught as ApiError;
    }
    expect(error?.kind).toBe('malformed-response');
    expect(error?.message).toContain('/data/1/visibility');
  });

  it('strip unknown keys in parseKnownShape as zod does', () => {
    const parsed = parseKnownShape(
      knownResponseSchema('listPlaybooks')!,
      page({ extra: 1, data: [playbook('p', { extra: 2 })] }),
      'listPlaybooks',
      200,
    ) as { data: Record<string, unknown>[] } & Record<string, unknown>;
    expect(parsed).not.toHaveProperty('extra');
    expect(parsed.data[0]).not.toHaveProperty('extra');
    expect(parsed.data[0]?.id).toBe('p');
  });
});
