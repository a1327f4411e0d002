import { describe, expect, it } from 'vitest';
import { formatDate } from '@/lib/i18n';
import {
  ApiError,
  buildOperationUrl,
  choosePageSize,
  operationResolver,
  pageSizeBounds,
  parseOpenApiDocument,
  parseSunset,
  resolveLocalRef,
  resolveOperation,
} from '@/lib/api';
import { API_URL, openApiDocument, rejection, SITE_URL } from './support';

const documentUrl = `${SITE_URL}/openapi.json`;
const BEFORE_SUNSET = Date.UTC(2025, 5, 29, 23, 59, 59);

function doc(
  mutate?: (raw: ReturnType<typeof openApiDocument>) => void,
  overrides?: Parameters<typeof openApiDocument>[0],
) {
  const raw = openApiDocument(overrides);
  mutate?.(raw);
  return parseOpenApiDocument(raw);
}

function thrown(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('parseSunset', () => {
  it.each([
    ['full-date is the start of that day UTC', '2025-06-30', Date.UTC(2025, 5, 30)],
    ['date-time with Z', '2025-06-30T12:30:00Z', Date.UTC(2025, 5, 30, 12, 30)],
    ['date-time with offset', '2025-06-30T12:30:00+02:00', Date.UTC(2025, 5, 30, 10, 30)],
    ['date-time with fraction', '2025-06-30T00:00:00.500Z', Date.UTC(2025, 5, 30) + 500],
    ['lower-case t and z', '2025-06-30t00:00:00z', Date.UTC(2025, 5, 30)],
  ])('%s', (_name, value, expected) => {
    expect(parseSunset(value)?.getTime()).toBe(expected);
  });

  it.each([
    ['2025-02-30'],
    ['2025-13-01'],
    ['30/06/2025'],
    ['2025-06-30T12:30:00'],
    ['2025-06-30T25:00:00Z'],
    ['tomorrow'],
    [''],
  ])('refuses %j', (value) => {
    expect(parseSunset(value)).toBeUndefined();
  });
});

describe('resolveOperation', () => {
  it('takes method, path, server and auth from the document', () => {
    const operation = resolveOperation(doc(), 'getPlaybook', BEFORE_SUNSET, { documentUrl });
    expect(operation).toMatchObject({
      operationId: 'getPlaybook',
      method: 'GET',
      pathTemplate: '/playbooks/{id}',
      serverUrl: API_URL,
      requiresAuth: true,
      deprecated: false,
      warnings: [],
    });
    expect(operation.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
    ]);
  });

  it.each([
    ['operation-level security: [] means no auth', 'getStatus', false],
    ['root security applies when the operation says nothing', 'getAccount', true],
  ])('%s', (_name, operationId, expected) => {
    expect(resolveOperation(doc(), operationId, BEFORE_SUNSET, { documentUrl }).requiresAuth).toBe(expected);
  });

  it('no root security and none on the operation means no auth', () => {
    const noRoot = doc((raw) => {
      delete (raw as { security?: unknown }).security;
    });
    expect(resolveOperation(noRoot, 'getAccount', BEFORE_SUNSET, { documentUrl }).requiresAuth).toBe(false);
  });

  it('prefers the current operation: a deprecated one with x-replaced-by resolves to its replacement, with a warning', () => {
    const operation = resolveOperation(doc(), 'listPlaybooksLegacy', BEFORE_SUNSET, { documentUrl });
    expect(operation.operationId).toBe('listPlaybooks');
    expect(operation.requestedOperationId).toBe('listPlaybooksLegacy');
    expect(operation.pathTemplate).toBe('/playbooks');
    expect(operation.warnings.join(' ')).toContain(
      'listPlaybooksLegacy is deprecated; using its replacement listPlaybooks',
    );
  });

  it('uses a deprecated operation without a replacement before its sunset, warning', () => {
    const noReplacement = doc((raw) => {
      delete (raw.paths['/legacy/playbooks'].get as Record<string, unknown>)['x-replaced-by'];
    });
    const operation = resolveOperation(noReplacement, 'listPlaybooksLegacy', BEFORE_SUNSET, { documentUrl });
    expect(operation.operationId).toBe('listPlaybooksLegacy');
    expect(operation.deprecated).toBe(true);
    expect(operation.sunset?.toISOString()).toBe('2025-06-30T00:00:00.000Z');
    expect(operation.warnings.join(' ')).toContain(
      `deprecated and stops working on ${formatDate(Date.UTC(2025, 5, 30))}`,
    );
  });

  it.each([
    ['full-date: the sunset day has begun', '2025-06-30', Date.UTC(2025, 5, 30, 0, 0, 0), true],
    ['full-date: one second before the day', '2025-06-30', Date.UTC(2025, 5, 29, 23, 59, 59), false],
    ['date-time: exactly at the instant', '2025-06-30T15:00:00Z', Date.UTC(2025, 5, 30, 15), true],
    [
      'date-time: earlier the same day is still usable',
      '2025-06-30T15:00:00Z',
      Date.UTC(2025, 5, 30, 14, 59),
      false,
    ],
    ['date-time with offset', '2025-06-30T15:00:00+05:00', Date.UTC(2025, 5, 30, 10), true],
  ])('sunset %s', (_name, sunset, now, refused) => {
    const raw = doc((document) => {
      const legacy = document.paths['/legacy/playbooks'].get as Record<string, unknown>;
      delete legacy['x-replaced-by'];
      legacy['x-sunset'] = sunset;
    });
    if (refused) {
      const error = thrown(() => resolveOperation(raw, 'listPlaybooksLegacy', now, { documentUrl }));
      expect(error.kind).toBe('sunset');
      expect(error.operationId).toBe('listPlaybooksLegacy');
    } else {
      expect(resolveOperation(raw, 'listPlaybooksLegacy', now, { documentUrl }).operationId).toBe(
        'listPlaybooksLegacy',
      );
    }
  });

  it('past its sunset, a deprecated operation still resolves to its live replacement', () => {
    const operation = resolveOperation(doc(), 'listPlaybooksLegacy', Date.UTC(2030, 0, 1), { documentUrl });
    expect(operation.operationId).toBe('listPlaybooks');
  });

  it('a replacement missing from the document is not invented; past the sunset the call is refused', () => {
    const missing = doc((raw) => {
      (raw.paths['/legacy/playbooks'].get as Record<string, unknown>)['x-replaced-by'] = 'listPlaybooksV3';
    });
    expect(
      resolveOperation(missing, 'listPlaybooksLegacy', BEFORE_SUNSET, { documentUrl }).warnings.join(' '),
    ).toContain('no such operation');
    expect(
      thrown(() => resolveOperation(missing, 'listPlaybooksLegacy', Date.UTC(2030, 0, 1), { documentUrl }))
        .kind,
    ).toBe('sunset');
  });

  it('a replacement cycle does not loop', () => {
    const cycle = doc((raw) => {
      const list = raw.paths['/playbooks'].get as Record<string, unknown>;
      list.deprecated = true;
      list['x-replaced-by'] = 'listPlaybooksLegacy';
    });
    const operation = resolveOperation(cycle, 'listPlaybooksLegacy', BEFORE_SUNSET, { documentUrl });
    expect(['listPlaybooks', 'listPlaybooksLegacy']).toContain(operation.operationId);
  });

  it('an unknown operationId is a typed error, not a guess', () => {
    expect(
      thrown(() => resolveOperation(doc(), 'deleteEverything', BEFORE_SUNSET, { documentUrl })).kind,
    ).toBe('not-found');
  });

  it.each([
    ['absolute with a prefix', 'https://api.example.test/v1/', 'https://api.example.test/v1'],
    ['relative to the document URL', '/api/v1', 'https://www.example.test/api/v1'],
    ['relative without a leading slash', 'api', 'https://www.example.test/api'],
  ])('server URL %s', (_name, serverUrl, expected) => {
    expect(
      resolveOperation(doc(undefined, { serverUrl }), 'getStatus', BEFORE_SUNSET, { documentUrl }).serverUrl,
    ).toBe(expected);
  });

  it('reads the request body schema through $ref', () => {
    const operation = resolveOperation(doc(), 'createPlaybook', BEFORE_SUNSET, { documentUrl });
    expect(operation.requestBodySchema).toEqual({ $ref: '#/components/schemas/NewPlaybook' });
    expect(operation.requestBodyRequired).toBe(true);
  });

  it.each([
    ['not an object', 'nope'],
    ['swagger 2', { swagger: '2.0', paths: {} }],
    ['paths not an object', { openapi: '3.1.0', paths: [] }],
  ])('refuses a document that is %s', async (_name, raw) => {
    const error = (await rejection(Promise.resolve().then(() => parseOpenApiDocument(raw)))) as ApiError;
    expect(error.kind).toBe('malformed-response');
  });
});

describe('operationResolver', () => {
  it('works an operation out once and hands back the same frozen answer', () => {
    const resolve = operationResolver(doc(), { documentUrl });
    const first = resolve('listPlaybooksLegacy', BEFORE_SUNSET);
    expect(resolve('listPlaybooksLegacy', BEFORE_SUNSET - 60_000)).toBe(first);
    expect(first).toEqual(resolveOperation(doc(), 'listPlaybooksLegacy', BEFORE_SUNSET, { documentUrl }));
    expect(Object.isFrozen(first) && Object.isFrozen(first.warnings)).toBe(true);
    expect(() => first.warnings.push('changed by a caller')).toThrow(TypeError);
  });

  it('answers anew when the clock crosses a sunset of the document, either way', () => {
    // The replacement goes first (2025-06-30), the deprecated list itself later (2026-01-01).
    const twoSunsets = doc((raw) => {
      (raw.paths['/playbooks'].get as Record<string, unknown>)['x-sunset'] = '2025-06-30';
      (raw.paths['/legacy/playbooks'].get as Record<string, unknown>)['x-sunset'] = '2026-01-01';
    });
    const resolve = operationResolver(twoSunsets, { documentUrl });
    const between = Date.UTC(2025, 8, 1);
    const after = Date.UTC(2026, 0, 2);
    expect(resolve('listPlaybooksLegacy', BEFORE_SUNSET).operationId).toBe('listPlaybooks');
    expect(resolve('listPlaybooksLegacy', between).operationId).toBe('listPlaybooksLegacy');
    expect(thrown(() => resolve('listPlaybooksLegacy', after)).kind).toBe('sunset');
    expect(resolve('listPlaybooksLegacy', between).operationId).toBe('listPlaybooksLegacy');
    expect(resolve('listPlaybooksLegacy', BEFORE_SUNSET).operationId).toBe('listPlaybooks');
  });

  it('does not keep a refusal', () => {
    const resolve = operationResolver(doc(), { documentUrl });
    expect(thrown(() => resolve('deleteEverything', BEFORE_SUNSET)).kind).toBe('not-found');
    expect(thrown(() => resolve('deleteEverything', BEFORE_SUNSET))).not.toBe(
      thrown(() => resolve('deleteEverything', BEFORE_SUNSET)),
    );
  });
});

describe('buildOperationUrl', () => {
  const getPlaybook = () => resolveOperation(doc(), 'getPlaybook', BEFORE_SUNSET, { documentUrl });
  const listPlaybooks = () => resolveOperation(doc(), 'listPlaybooks', BEFORE_SUNSET, { documentUrl });

  it.each([
    ['plain id', 'pb_1', `${API_URL}/playbooks/pb_1`],
    ['slash is encoded, not a path', 'a/../../admin', `${API_URL}/playbooks/a%2F..%2F..%2Fadmin`],
    ['query characters are encoded', 'x?y=1#z', `${API_URL}/playbooks/x%3Fy%3D1%23z`],
    ['unicode', 'é', `${API_URL}/playbooks/%C3%A9`],
  ])('path parameter: %s', (_name, id, expected) => {
    expect(buildOperationUrl(getPlaybook(), { path: { id } })).toBe(expected);
  });

  it.each([[''], ['.'], ['..']])(
    'refuses the path parameter %j (it would walk to another resource)',
    (id) => {
      const error = thrown(() => buildOperationUrl(getPlaybook(), { path: { id } }));
      expect(error.kind).toBe('validation');
      expect(Object.keys(error.fieldErrors ?? {})).toEqual(['/path/id']);
    },
  );

  it('refuses a missing path parameter', () => {
    expect(thrown(() => buildOperationUrl(getPlaybook(), {})).fieldErrors).toEqual({
      '/path/id': 'Required.',
    });
  });

  it('adds declared query parameters, skips empty ones and encodes values', () => {
    expect(
      buildOperationUrl(listPlaybooks(), { query: { limit: 5, cursor: 'a b&c', visibility: undefined } }),
    ).toBe(`${API_URL}/playbooks?limit=5&cursor=a+b%26c`);
  });

  it('refuses a query parameter the operation does not declare', () => {
    const error = thrown(() => buildOperationUrl(listPlaybooks(), { query: { admin: 'true' } }));
    expect(error.fieldErrors).toEqual({ '/query/admin': 'Not a parameter of listPlaybooks.' });
  });
});

describe('page size bounds come from the document', () => {
  it.each([
    ['the sandbox declaration', {}, { minimum: 1, maximum: 100, default: 20 }],
    ['a smaller deployment', { maximum: 25, default: 10 }, { minimum: 1, maximum: 25, default: 10 }],
    [
      'a default above the maximum is clamped',
      { maximum: 10, default: 50 },
      { minimum: 1, maximum: 10, default: 10 },
    ],
    [
      'exclusive bounds',
      { minimum: undefined, maximum: undefined, exclusiveMinimum: 0, exclusiveMaximum: 51 },
      { minimum: 1, maximum: 50, default: 20 },
    ],
  ])('%s', (_name, limit, expected) => {
    const operation = resolveOperation(doc(undefined, { limit }), 'listPlaybooks', BEFORE_SUNSET, {
      documentUrl,
    });
    expect(pageSizeBounds(operation)).toEqual(expected);
  });

  it('an operation without a limit parameter has no bounds', () => {
    expect(
      pageSizeBounds(resolveOperation(doc(), 'getAccount', BEFORE_SUNSET, { documentUrl })),
    ).toBeUndefined();
  });

  it.each([
    [undefined, 20],
    [0, 1],
    [-5, 1],
    [7.9, 7],
    [1_000_000, 100],
    [Number.NaN, 20],
    [Number.POSITIVE_INFINITY, 20],
  ])('requested page size %s becomes %i', (requested, expected) => {
    expect(choosePageSize({ minimum: 1, maximum: 100, default: 20 }, requested)).toBe(expected);
  });
});

describe('resolveLocalRef', () => {
  const doc = {
    components: {
      schemas: {
        Plan: { type: 'string', enum: ['pro'] },
        'a/b': { type: 'integer' },
        'x y': { type: 'boolean' },
        Alias: { $ref: '#/components/schemas/Plan' },
        Loop: { $ref: '#/components/schemas/Loop' },
      },
    },
  };
  it.each([
    ['a local ref', '#/components/schemas/Plan', { type: 'string', enum: ['pro'] }],
    ['a ref to a ref', '#/components/schemas/Alias', { type: 'string', enum: ['pro'] }],
    ['an escaped slash (~1)', '#/components/schemas/a~1b', { type: 'integer' }],
    ['a percent-encoded name', '#/components/schemas/x%20y', { type: 'boolean' }],
    ['a missing name', '#/components/schemas/Nope', undefined],
    ['an inherited name (__proto__)', '#/components/__proto__', undefined],
    ['an inherited name (constructor)', '#/components/schemas/constructor', undefined],
    ['a broken percent-encoding', '#/components/schemas/%E0%A4%A', undefined],
    ['a lone percent sign', '#/components/%', undefined],
    ['a remote ref (not fetched)', 'https://evil.example.test/schema.json', undefined],
  ])('%s', (_name, ref, expected) => {
    expect(resolveLocalRef(doc, { $ref: ref })).toEqual(expected);
  });

  it('a ref cycle ends instead of recursing forever', () => {
    expect(() => resolveLocalRef(doc, { $ref: '#/components/schemas/Loop' })).not.toThrow();
  });
});
