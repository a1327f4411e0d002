import { compileErrors, validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/server';
import { startTestSandbox, type Json } from './helpers';

let sb: Sandbox;
let doc: Json;
beforeAll(async () => {
  sb = await startTestSandbox();
  doc = await (await fetch(`${sb.baseUrl}/openapi.json`)).json();
});
afterAll(() => sb.close());

const TABLE: [string, boolean][] = [
  ['getStatus', false],
  ['listPublicPlaybooks', false],
  ['getAccount', true],
  ['listPlaybooks', true],
  ['listPlaybooksLegacy', true],
  ['getPlaybook', true],
  ['batchGetPlaybooks', true],
  ['createPlaybook', true],
  ['updatePlaybook', true],
  ['runBacktest', true],
  ['listBacktests', true],
  ['getBacktest', true],
  ['activatePlaybook', true],
  ['pausePlaybook', true],
  ['createCheckoutSession', true],
  ['createBrokerageLink', true],
  ['listCatalysts', true],
  ['getPlaybookPerformance', true],
  ['listEvents', true],
  ['streamEvents', true],
  ['graphql', true],
];

function operations(): Map<string, { method: string; path: string; op: Json }> {
  const found = new Map<string, { method: string; path: string; op: Json }>();
  for (const [path, item] of Object.entries<Json>(doc.paths))
    for (const [method, op] of Object.entries<Json>(item)) found.set(op.operationId, { method, path, op });
  return found;
}

describe('OpenAPI document', () => {
  it('passes a real OpenAPI validator (@readme/openapi-parser)', async () => {
    const result = await validate(structuredClone(doc));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(doc.openapi).toMatch(/^3\.1\./);
  });

  it('a broken document fails the same validator (the check can fail)', async () => {
    const broken = structuredClone(doc);
    broken.paths['/account'].get.responses = 'nope';
    expect((await validate(broken)).valid).toBe(false);
  });

  it('servers[0].url is the absolute API URL of this port', () => {
    expect(doc.servers[0].url).toBe(sb.apiUrl);
  });

  it('declares the bearer scheme', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it.each(TABLE)('%s exists with the right auth and problem+json errors', (id, auth) => {
    const found = operations().get(id);
    expect(found, id).toBeDefined();
    expect(found!.op.security).toEqual(auth ? [{ bearerAuth: [] }] : []);
    expect(found!.op.responses['400'].content['application/problem+json']).toBeDefined();
    expect(found!.op.responses['429'].headers['Retry-After']).toBeDefined();
  });

  it('has exactly the operations of the contract table', () => {
    expect([...operations().keys()].sort()).toEqual(TABLE.map(([id]) => id).sort());
  });

  it.each(['listPlaybooks', 'listPublicPlaybooks', 'listEvents'])(
    '%s declares limit 1-100 default 20',
    (id) => {
      const limit = operations()
        .get(id)!
        .op.parameters.find((p: Json) => p.name === 'limit');
      expect(limit.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    },
  );

  it('writes require an Idempotency-Key; reads do not', () => {
    for (const [id, { op }] of operations()) {
      const refs = JSON.stringify(op.parameters ?? []);
      const isWrite = [
        'createPlaybook',
        'updatePlaybook',
        'runBacktest',
        'activatePlaybook',
        'pausePlaybook',
        'createCheckoutSession',
        'createBrokerageLink',
      ].includes(id);
      expect(refs.includes('IdempotencyKey'), id).toBe(isWrite);
    }
  });

  it('listPlaybooksLegacy is deprecated with x-sunset in the past and x-replaced-by', () => {
    const legacy = operations().get('listPlaybooksLegacy')!.op;
    expect(legacy.deprecated).toBe(true);
    expect(legacy['x-replaced-by']).toBe('listPlaybooks');
    expect(legacy['x-sunset']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Date.parse(`${legacy['x-sunset']}T00:00:00Z`)).toBeLessThan(Date.now());
    expect(operations().get('listPlaybooks')!.op.deprecated).toBeUndefined();
  });

  it('request schemas reject unknown fields (additionalProperties false)', () => {
    expect(doc.components.schemas.CreatePlaybookRequest.additionalProperties).toBe(false);
    expect(doc.components.schemas.CreatePlaybookRequest.required.sort()).toEqual([
      'thesis',
      'title',
      'visibility',
    ]);
  });

  it('every path in the document answers (no phantom operations)', async () => {
    // listCatalysts needs one of its two filters (a bare call is a 400, which would prove less).
    const query: Record<string, string> = { listCatalysts: '?tickers=NVDA' };
    for (const [id, { method, path }] of operations()) {
      if (method !== 'get' || path.includes('{') || path.endsWith('/stream')) continue;
      const response = await fetch(`${doc.servers[0].url}${path}${query[id] ?? ''}`, {
        headers: { Authorization: `Bearer ${sb.demoKey}` },
      });
      expect(response.status, path).toBe(200);
    }
  });
});
