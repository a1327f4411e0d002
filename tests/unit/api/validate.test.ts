import { describe, expect, it } from 'vitest';
import {
  accountSchema,
  ApiError,
  parseKnownShape,
  parseOpenApiDocument,
  readJsonBody,
  resolveOperation,
  validateRequestBody,
} from '@/lib/api';
import { openApiDocument, rejection, SITE_URL } from './support';

const document = parseOpenApiDocument(openApiDocument());
const createPlaybook = resolveOperation(document, 'createPlaybook', Date.UTC(2026, 0, 1), {
  documentUrl: `${SITE_URL}/openapi.json`,
});

function validationOf(body: unknown): ApiError | undefined {
  try {
    validateRequestBody(document, createPlaybook, body);
    return undefined;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

const valid = { title: 'Semis', thesis: 'Capex cycle', visibility: 'private', tickers: ['NVDA'] };

describe('validateRequestBody (JSON Schema through $ref, no eval)', () => {
  it('accepts a body that fits', () => {
    expect(validationOf(valid)).toBeUndefined();
    expect(validationOf({ ...valid, source: { url: 'https://news.example/a', title: 'A' } })).toBeUndefined();
  });

  it.each([
    ['missing required field', { title: 'x', visibility: 'private' }, { '/thesis': 'Required.' }],
    ['empty title', { ...valid, title: '' }, { '/title': 'Must not be empty.' }],
    ['title past maxLength', { ...valid, title: 'x'.repeat(121) }, { '/title': 'At most 120 characters.' }],
    [
      'tickers past maxItems',
      { ...valid, tickers: Array.from({ length: 21 }, () => 'NVDA') },
      { '/tickers': 'At most 20 entries.' },
    ],
    [
      'excerpt past maxLength through a nested $ref',
      { ...valid, source: { url: 'https://x.example', title: 'A', excerpt: 'e'.repeat(501) } },
      { '/source/excerpt': 'At most 500 characters.' },
    ],
    [
      'unknown visibility',
      { ...valid, visibility: 'secret' },
      { '/visibility': 'Not one of the allowed values.' },
    ],
    ['lower-case ticker', { ...valid, tickers: ['nvda'] }, { '/tickers/0': 'Not in the expected form.' }],
    ['extra field', { ...valid, owner: 'me' }, { '/owner': 'Not an allowed field.' }],
    [
      'nested $ref: source without title',
      { ...valid, source: { url: 'https://x.example' } },
      { '/source/title': 'Required.' },
    ],
    ['wrong type at the root', 'just a string', { '/': 'Not of the expected type.' }],
    [
      'prototype-polluting key',
      JSON.parse('{"title":"t","thesis":"t","visibility":"private","__proto__":{"admin":true}}'),
      { '/__proto__': 'Not an allowed field.' },
    ],
  ])('refuses %s with field pointers', (_name, body, fieldErrors) => {
    const error = validationOf(body);
    expect(error?.kind).toBe('validation');
    expect(error?.operationId).toBe('createPlaybook');
    expect(error?.fieldErrors).toEqual(expect.objectContaining(fieldErrors));
  });

  it('a required body that is missing is refused before sending', () => {
    expect(validationOf(undefined)?.fieldErrors).toEqual({ '/': 'Required.' });
  });

  it('a schema whose $ref cannot be resolved refuses rather than sending unchecked', () => {
    const broken = parseOpenApiDocument(openApiDocument());
    const operation = {
      ...createPlaybook,
      operationId: 'brokenOperation',
      requestBodySchema: { $ref: '#/components/schemas/Nope' },
    };
    expect(() => validateRequestBody(broken, operation, valid)).toThrow(ApiError);
  });
});

function response(body: BodyInit | null, headers: Record<string, string>, status = 200) {
  return new Response(body, { status, headers });
}

describe('readJsonBody guards', () => {
  it('reads JSON and problem+json', async () => {
    expect(
      await readJsonBody(
        response('{"a":1}', { 'content-type': 'application/json; charset=utf-8' }),
        'getStatus',
      ),
    ).toEqual({ a: 1 });
    expect(
      await readJsonBody(response('{"b":2}', { 'content-type': 'application/problem+json' }), 'getStatus'),
    ).toEqual({ b: 2 });
  });

  it.each([
    ['invalid JSON', response('{"a":', { 'content-type': 'application/json' }), /not valid JSON/],
    [
      'HTML where JSON is expected',
      response('<html></html>', { 'content-type': 'text/html' }),
      /expected JSON but the service sent "text\/html"/,
    ],
    ['no content type', response(new TextEncoder().encode('{}'), {}), /no content type/],
    ['a lookalike type', response('{}', { 'content-type': 'application/jsonp' }), /expected JSON/],
    [
      'invalid UTF-8',
      response(new Uint8Array([0x7b, 0xff, 0x7d]), { 'content-type': 'application/json' }),
      /UTF-8/,
    ],
  ])('%s is malformed-response', async (_name, res, message) => {
    const error = (await rejection(readJsonBody(res, 'getStatus'))) as ApiError;
    expect(error.kind).toBe('malformed-response');
    expect(error.message).toMatch(message);
    expect(error.message.startsWith('getStatus')).toBe(true);
  });

  it('a body of broken UTF-8 leaves nothing behind for the next body (one shared decoder)', async () => {
    const half = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3]); // {"a":" then half of "é"
    await rejection(readJsonBody(response(half, { 'content-type': 'application/json' }), 'getStatus'));
    const rest = new Uint8Array([0xa9, 0x22, 0x7d]); // the other half of "é", then "}
    const error = (await rejection(
      readJsonBody(response(rest, { 'content-type': 'application/json' }), 'getStatus'),
    )) as ApiError;
    expect(error.message).toMatch(/UTF-8/);
    expect(
      await readJsonBody(response('{"a":"é"}', { 'content-type': 'application/json' }), 'getStatus'),
    ).toEqual({ a: 'é' });
  });

  it('refuses a body over the cap without reading it all (declared length)', async () => {
    const error = (await rejection(
      readJsonBody(
        response('{}', { 'content-type': 'application/json', 'content-length': '5000000' }),
        'listPlaybooks',
        1024,
      ),
    )) as ApiError;
    expect(error.kind).toBe('malformed-response');
    expect(error.message).toContain('5000000 bytes');
  });

  it('refuses a streamed body that grows past the cap and stops pulling it', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new TextEncoder().encode('['.padEnd(512, ' ')));
      },
    });
    const error = (await rejection(
      readJsonBody(response(endless, { 'content-type': 'application/json' }), 'listPlaybooks', 4096),
    )) as ApiError;
    expect(error.kind).toBe('malformed-response');
    expect(error.message).toContain('longer than the 4096 bytes');
    expect(pulled).toBeLessThan(20);
  });
});

describe('parseKnownShape', () => {
  it('refuses a body of the wrong shape naming the field', () => {
    const error = (() => {
      try {
        parseKnownShape(
          accountSchema,
          { id: 'u', name: 'n', email: 'e', plan: 'p', permissions: 'all', brokerage_linked: false },
          'getAccount',
          200,
        );
      } catch (caught) {
        return caught as ApiError;
      }
      throw new Error('expected a failure');
    })();
    expect(error.kind).toBe('malformed-response');
    expect(error.message).toContain('/permissions');
  });
});
