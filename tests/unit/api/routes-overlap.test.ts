/**
 * `routesOverlap` decides exactly whether some concrete path matches two templates. Checked here
 * against a brute-force matcher on generated templates and paths, and on a table of the path
 * styles real services use.
 */
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import {
  assertUnambiguousDocument,
  parseOpenApiDocument,
  routesOverlap,
  WRITE_OPERATIONS,
  writeReachedBy,
} from '@/lib/api';
import { customMethodDocument, writesDocument } from './support';

// Templates are built from two literal characters and a parameter, up to three tokens a segment.
const LITERALS = ['a', ':'];
const FRESH = 'z';
const token = fc.constantFrom(...LITERALS, '{p}');
const segment = fc.array(token, { minLength: 1, maxLength: 3 }).map((tokens) => tokens.join(''));
const concreteSegment = fc
  .array(fc.constantFrom(...LITERALS, FRESH), { minLength: 1, maxLength: 4 })
  .map((chars) => chars.join(''));
const pathOf = (segments: string[]) => `/${segments.join('/')}`;

/**
 * Every text up to `MAX_WITNESS` characters over the templates' literal characters and one they
 * never use. Two patterns of at most three tokens (literal characters or parameters, each
 * parameter at least one character) that share a text share one of at most six characters: a
 * shortest common text reads at least one token of one side per character, and a character
 * read by two parameters can be one neither literal uses.
 */
const MAX_WITNESS = 6;
const TEXTS: string[] = (() => {
  const out = [''];
  let layer = [''];
  for (let length = 1; length <= MAX_WITNESS; length++) {
    layer = layer.flatMap((prefix) => [...LITERALS, FRESH].map((char) => prefix + char));
    out.push(...layer);
  }
  return out;
})();

/** A template segment as a regular expression, each parameter any non-empty text. */
const patternOf = (template: string) =>
  new RegExp(
    `^${template
      .split(/\{[^{}]*\}/)
      .map((literal) => literal.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
      .join('.+')}$`,
  );

/** Brute force: the segments pair up, and each pair is matched by some text tried one by one. */
function bruteForceOverlap(left: string[], right: string[]): boolean {
  if (left.length !== right.length) return false;
  return left.every((a, i) => {
    const [x, y] = [patternOf(a), patternOf(right[i])];
    return TEXTS.some((text) => text !== '' && x.test(text) && y.test(text));
  });
}

describe('routesOverlap against a brute-force matcher', () => {
  test.prop([fc.array(fc.tuple(segment, segment), { minLength: 1, maxLength: 3 })], { numRuns: 1000 })(
    'two templates of as many segments',
    (pairs) => {
      const left = pairs.map(([a]) => a);
      const right = pairs.map(([, b]) => b);
      expect(routesOverlap(pathOf(left), pathOf(right))).toBe(bruteForceOverlap(left, right));
    },
  );

  test.prop(
    [fc.array(segment, { minLength: 1, maxLength: 3 }), fc.array(segment, { minLength: 1, maxLength: 3 })],
    { numRuns: 300 },
  )('two templates of any lengths', (left, right) => {
    expect(routesOverlap(pathOf(left), pathOf(right))).toBe(bruteForceOverlap(left, right));
  });

  test.prop([fc.array(fc.tuple(segment, concreteSegment), { minLength: 1, maxLength: 3 })], {
    numRuns: 1000,
  })('a template and a concrete path', (pairs) => {
    const template = pairs.map(([a]) => a);
    const path = pairs.map(([, b]) => b);
    const matches = path.every((text, i) => patternOf(template[i]).test(text));
    expect(routesOverlap(pathOf(template), pathOf(path))).toBe(matches);
    expect(routesOverlap(pathOf(path), pathOf(template))).toBe(matches);
  });
});

describe('routesOverlap on the path styles of real services', () => {
  it.each([
    // AIP-136 custom methods on a resource and on a collection.
    ['/strategies/{name}:start', '/strategies/{name}:stop', false],
    ['/playbooks/{id}:go-live', '/playbooks/{id}:halt', false],
    ['/strategies/{name}:cancel', '/strategies/{id}:cancel', true],
    ['/strategies:batchGet', '/strategies', false],
    ['/strategies:batchGet', '/strategies/{name}', false],
    ['/strategies/{name}', '/strategies/{name}:start', true],
    ['/strategies/{name}:start', '/strategies/s1:start', true],
    ['/strategies/{name}:start', '/strategies/s1:stop', false],
    ['/{parent}/strategies:batchGet', '/{parent}/strategies:batchCreate', false],
    // Action sub-resources.
    ['/playbooks/{id}/actions/start', '/playbooks/{id}/actions/stop', false],
    ['/playbooks/{id}/actions/{action}', '/playbooks/{id}/actions/stop', true],
    ['/playbooks/{id}/activate', '/playbooks/batch-get/activate', true],
    // Dotted, versioned and suffixed segments.
    ['/v{major}.{minor}/playbooks', '/v1.2/playbooks', true],
    ['/v{major}.{minor}/playbooks', '/v1/playbooks', false],
    ['/v{major}.{minor}/playbooks', '/v{version}/playbooks', true],
    ['/exports/{name}.json', '/exports/{name}.csv', false],
    ['/exports/{name}.json', '/exports/{name}', true],
    ['/exports/{name}.json', '/exports/latest.json', true],
    ['/exports/{name}.json', '/exports/.json', false],
    // A path prefix of the service's own.
    ['/api/v3/strategies/{name}:goLive', '/api/v3/strategies/{name}:halt', false],
    ['/api/v3/strategies/{name}:goLive', '/api/v4/strategies/{name}:goLive', false],
    // Case, trailing slashes and escapes, as a server may compare them.
    ['/Playbooks/{id}/Activate/', '/playbooks/{x}/activate', true],
    ['/playbooks/{id}/activ%61te', '/playbooks/{x}/activate', true],
    // Two parameters in one segment against one, in either order.
    ['/p/{a}-{b}', '/p/{c}', true],
    ['/p/{a}-{b}', '/p/x-', false],
    ['/p/{a}{b}', '/p/x', false],
    ['/p/{a}{b}', '/p/xy', true],
  ])('%s and %s overlap: %s', (a, b, overlap) => {
    expect(routesOverlap(a, b)).toBe(overlap);
    expect(routesOverlap(b, a)).toBe(overlap);
  });

  it('folds case one letter at a time: a capital sigma folds alike wherever it stands', () => {
    expect(routesOverlap('/x/{id}Σ', '/x/AΣ')).toBe(true);
    expect(routesOverlap('/x/{id}Σ', '/x/{q}AΣ')).toBe(true);
    expect(routesOverlap('/x/AΣ{id}', '/x/aσb')).toBe(true);
  });

  it('counts a segment over 1,024 characters as overlapping, unread', () => {
    const long = 'c'.repeat(1025);
    expect(routesOverlap(`/a{p}${long}{q}a`, '/a0000a')).toBe(true);
    expect(routesOverlap(`/a{p}${'c'.repeat(1000)}{q}a`, '/a0000a')).toBe(false);
  });
});

describe('a document built to be slow', () => {
  it('is decided in time linear in its size: one long write against thousands of operations', () => {
    // A review found this took 100 s with a search over pairs of positions; now about a second.
    const doc = customMethodDocument();
    const paths = doc.paths as Record<string, Record<string, unknown>>;
    paths[`/a{p}${'c'.repeat(1000)}{q}a`] = { post: { operationId: 'activatePlaybook', responses: {} } };
    delete paths['/strategies/{name}:goLive'];
    for (let i = 0; i < 16_000; i++)
      paths[`/a${String(i).padStart(5, '0')}a`] = { post: { operationId: `read${i}`, responses: {} } };
    const parsed = parseOpenApiDocument(doc);
    expect(() => assertUnambiguousDocument(parsed, WRITE_OPERATIONS)).not.toThrow();
  });
});

describe('documents and requests in the custom-method style', () => {
  const doc = parseOpenApiDocument(customMethodDocument());

  it('accepts a document whose writes are custom methods of one resource', () => {
    expect(() => assertUnambiguousDocument(doc, WRITE_OPERATIONS)).not.toThrow();
  });

  it('still refuses a read declared on a path a write also matches', () => {
    const hostile = customMethodDocument();
    const paths = hostile.paths as Record<string, Record<string, unknown>>;
    paths['/strategies/{name}:{verb}'] = { post: { operationId: 'searchStrategies', responses: {} } };
    expect(() => assertUnambiguousDocument(parseOpenApiDocument(hostile), WRITE_OPERATIONS)).toThrow(
      /searchStrategies/,
    );
  });

  it.each([
    ['https://api.example.test/v1/strategies/pb_1:goLive', 'activatePlaybook'],
    ['https://api.example.test/v1/strategies/pb_1:halt', 'pausePlaybook'],
    ['https://api.example.test/v1/STRATEGIES/pb_1:HALT/', 'pausePlaybook'],
    ['https://api.example.test/v1/strategies/pb_1:backtest', 'runBacktest'],
    ['https://api.example.test/v1/strategies', 'createPlaybook'],
    ['https://api.example.test/v1/strategies:batchGet', undefined],
    ['https://api.example.test/v1/strategies/pb_1:halted', undefined],
    ['https://api.example.test/v1/strategies/%7Bname%7D:goLive', 'activatePlaybook'],
    ['https://api.example.test/v2/strategies/pb_1:goLive', undefined],
  ] as const)('a POST to %s reaches the write %s', (url, write) => {
    expect(writeReachedBy(doc, WRITE_OPERATIONS, 'POST', url, 'https://api.example.test/v1')).toBe(write);
  });

  it.each([
    // An encoded slash, decoded by the server before it splits the path (ASGI servers).
    ['https://api.example.test/v1/strategies%2Fpb_1:halt', 'pausePlaybook'],
    // A `;` parameter, dropped by Servlet containers.
    ['https://api.example.test/v1/strategies/pb_1:halt;x=1', 'pausePlaybook'],
    // Doubled slashes, merged by a proxy.
    ['https://api.example.test/v1//strategies//pb_1:halt', 'pausePlaybook'],
    ['https://api.example.test/v1/strategies/pb_1;x=1', undefined],
  ] as const)('a POST to %s, as a server may read it, reaches %s', (url, write) => {
    expect(writeReachedBy(doc, WRITE_OPERATIONS, 'POST', url, 'https://api.example.test/v1')).toBe(write);
  });

  it('reaches the same writes in the plain resource style', () => {
    const plain = parseOpenApiDocument(writesDocument());
    expect(
      writeReachedBy(
        plain,
        WRITE_OPERATIONS,
        'POST',
        'https://api.example.test/v1/playbooks/x:goLive/pause',
        'https://api.example.test/v1',
      ),
    ).toBe('pausePlaybook');
  });
});
