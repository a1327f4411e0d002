/** The OpenAPI 3.1 document, built from the same zod schemas that validate requests. */
import { z } from 'zod';
import { VISIBILITIES } from '../lib/contract/visibility';
import { DISCLAIMER, SERVICE_NAME, SERVICE_VERSION, SUMMARY } from './identity';
import type { DialectSpec, OperationId } from './dialect';
import type { OpenApiTamper } from './faults';
import { OPERATIONS, type OperationSpec } from './operationTable';
import { BATCH_MAX, CATALYST_TICKERS_MAX, componentSchemas } from './schemas';

export { OPERATIONS, operation, type OperationSpec } from './operationTable';

export interface Deprecation {
  operationId: OperationId;
  sunset: Date;
  replacedBy: OperationId;
}

type JsonObject = Record<string, unknown>;

function schemaOf(schema: z.ZodType): JsonObject {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    unrepresentable: 'any',
    io: 'input',
  }) as JsonObject;
  delete json.$schema;
  return json;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonObject) => ({ 'application/json': { schema } });
const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ref('Problem') } },
});
const rateHeaders = {
  RateLimit: { $ref: '#/components/headers/RateLimit' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
};

function listParameters(limits: DialectSpec['limits']): JsonObject[] {
  return [
    {
      name: 'limit',
      in: 'query',
      required: false,
      description: 'Page size.',
      schema: { type: 'integer', minimum: limits.min, maximum: limits.max, default: limits.default },
    },
    {
      name: 'cursor',
      in: 'query',
      required: false,
      description: 'Opaque cursor from next_cursor.',
      schema: { type: 'string', maxLength: 512 },
    },
  ];
}

function catalystParameters(): JsonObject[] {
  const fullDate = { type: 'string', format: 'date' };
  return [
    {
      name: 'playbook_id',
      in: 'query',
      required: false,
      description: "The catalysts of this playbook's tickers.",
      schema: { type: 'string', maxLength: 64 },
    },
    {
      name: 'tickers',
      in: 'query',
      required: false,
      description: `Comma-separated ticker symbols, 1–${CATALYST_TICKERS_MAX}.`,
      schema: { type: 'string', maxLength: CATALYST_TICKERS_MAX * 13 },
    },
    { name: 'from', in: 'query', required: false, description: 'First date, inclusive.', schema: fullDate },
    { name: 'to', in: 'query', required: false, description: 'Last date, inclusive.', schema: fullDate },
  ];
}

function buildOperation(
  spec: OperationSpec,
  path: string,
  dialect: DialectSpec,
  deprecations: Deprecation[],
  baseUrl: string,
): JsonObject {
  const responses: JsonObject = {};
  const op: JsonObject = { operationId: spec.operationId, summary: spec.summary, tags: [spec.tag] };
  const parameters: JsonObject[] = [];
  const pathParam = /\{(\w+)\}/.exec(path)?.[1];
  if (pathParam)
    parameters.push({
      name: pathParam,
      in: 'path',
      required: true,
      description: spec.operationId === 'getBacktest' ? 'The backtest id.' : 'The playbook id.',
      schema: { type: 'string', maxLength: 64 },
    });
  let success: [string, JsonObject];
  switch (spec.operationId) {
    case 'getStatus':
      success = [
        '200',
        { description: 'Current status', headers: rateHeaders, content: json(ref('Status')) },
      ];
      break;
    case 'listPublicPlaybooks':
    case 'listPlaybooks':
    case 'listPlaybooksLegacy':
      parameters.push(...listParameters(dialect.limits));
      if (spec.operationId !== 'listPublicPlaybooks')
        parameters.push({
          name: 'visibility',
          in: 'query',
          required: false,
          schema: { type: 'string', enum: [...VISIBILITIES] },
        });
      success = [
        '200',
        { description: 'A page of playbooks', headers: rateHeaders, content: json(ref('PlaybookList')) },
      ];
      break;
    case 'getAccount':
      success = ['200', { description: 'The account', headers: rateHeaders, content: json(ref('Account')) }];
      break;
    case 'getPlaybook':
      success = [
        '200',
        {
          description: 'The playbook',
          headers: { ETag: { $ref: '#/components/headers/ETag' }, ...rateHeaders },
          content: json(ref('Playbook')),
        },
      ];
      break;
    case 'batchGetPlaybooks':
      op.requestBody = { required: true, content: json(ref('BatchGetRequest')) };
      op.description = `Reads 1–${BATCH_MAX} playbooks. Results follow request order; an item the caller may not see is a 404 exactly like a missing one.`;
      success = [
        '200',
        { description: 'Per-item results', headers: rateHeaders, content: json(ref('BatchGetResult')) },
      ];
      break;
    case 'createPlaybook':
      op.requestBody = { required: true, content: json(ref('CreatePlaybookRequest')) };
      success = [
        '201',
        {
          description: 'The new draft playbook',
          headers: { ETag: { $ref: '#/components/headers/ETag' }, ...rateHeaders },
          content: json(ref('Playbook')),
        },
      ];
      break;
    case 'updatePlaybook':
      parameters.push({
        name: 'If-Match',
        in: 'header',
        required: true,
        description: "The playbook's etag.",
        schema: { type: 'string' },
      });
      op.requestBody = { required: true, content: json(ref('UpdatePlaybookRequest')) };
      success = [
        '200',
        {
          description: 'The updated playbook',
          headers: { ETag: { $ref: '#/components/headers/ETag' }, ...rateHeaders },
          content: json(ref('Playbook')),
        },
      ];
      responses['412'] = problemResponse('The etag in If-Match is stale');
      responses['428'] = problemResponse('If-Match is missing');
      break;
    case 'runBacktest':
      op.requestBody = { required: true, content: json(ref('RunBacktestRequest')) };
      success = [
        '202',
        {
          description: 'Queued; completion arrives as a backtest.completed event',
          headers: rateHeaders,
          content: json(ref('BacktestQueued')),
        },
      ];
      break;
    case 'listBacktests':
      parameters.push(...listParameters(dialect.limits));
      success = [
        '200',
        {
          description: 'A page of backtests, newest first, without equity',
          headers: rateHeaders,
          content: json(ref('BacktestList')),
        },
      ];
      break;
    case 'getBacktest':
      success = [
        '200',
        {
          description: 'The backtest; equity only when completed',
          headers: rateHeaders,
          content: json(ref('Backtest')),
        },
      ];
      break;
    case 'activatePlaybook':
    case 'pausePlaybook':
      op.requestBody = { required: false, content: json({ type: 'object', additionalProperties: false }) };
      success = [
        '200',
        {
          description: 'The playbook with its new status',
          headers: rateHeaders,
          content: json(ref('Playbook')),
        },
      ];
      break;
    case 'createCheckoutSession':
      op.requestBody = { required: true, content: json(ref('CheckoutRequest')) };
      success = [
        '201',
        {
          description: 'A checkout page to open',
          headers: rateHeaders,
          content: json(ref('CheckoutSession')),
        },
      ];
      break;
    case 'createBrokerageLink':
      op.requestBody = { required: true, content: json(ref('BrokerageLinkRequest')) };
      success = [
        '201',
        { description: 'A linking page to open', headers: rateHeaders, content: json(ref('BrokerageLink')) },
      ];
      break;
    case 'listCatalysts':
      parameters.push(...listParameters(dialect.limits), ...catalystParameters());
      op.description =
        'Exactly one of playbook_id (its tickers) or tickers. Ascending by `at`; `from` defaults to today (UTC), so a passed catalyst is not listed. A cancelled one stays listed until its date passes.';
      success = [
        '200',
        {
          description: 'A page of catalysts, ascending by date',
          headers: rateHeaders,
          content: json(ref('CatalystList')),
        },
      ];
      responses['404'] = problemResponse('No playbook with this playbook_id, or not visible to the caller');
      break;
    case 'getPlaybookPerformance':
      success = [
        '200',
        {
          description: 'Returns since the playbook was created, against its benchmark',
          headers: rateHeaders,
          content: json(ref('Performance')),
        },
      ];
      break;
    case 'listEvents':
      parameters.push(...listParameters(dialect.limits));
      success = [
        '200',
        {
          description: 'Events after the cursor; next_cursor is always a position to poll from',
          headers: rateHeaders,
          content: json(ref('EventList')),
        },
      ];
      break;
    case 'streamEvents':
      parameters.push({
        name: 'Last-Event-ID',
        in: 'header',
        required: false,
        description: 'Resume after this event id.',
        schema: { type: 'string' },
      });
      success = [
        '200',
        {
          description: 'Server-Sent Events: event = type, id = event id, data = Event JSON',
          content: { 'text/event-stream': { schema: { type: 'string' } } },
        },
      ];
      break;
    case 'graphql':
      op.requestBody = { required: true, content: json(ref('GraphQLRequest')) };
      op.description =
        'Read-only GraphQL. `playbooks(first: Int, after: String, visibility: Visibility): PlaybookConnection` with `edges {cursor node}` and `pageInfo {hasNextPage endCursor}`.';
      success = [
        '200',
        { description: 'GraphQL response', headers: rateHeaders, content: json(ref('GraphQLResponse')) },
      ];
      break;
  }
  if (spec.write) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  responses[success[0]] = success[1];
  if (spec.write) {
    responses['409'] = problemResponse('The same Idempotency-Key is still in flight');
    responses['422'] = problemResponse('The Idempotency-Key was used with another body');
  }
  responses['400'] = problemResponse('Invalid request');
  if (spec.auth) responses['401'] = problemResponse('Missing, invalid or revoked API key');
  if (spec.auth) responses['403'] = problemResponse('Missing permission or account state');
  if (pathParam)
    responses['404'] = problemResponse(
      `No such ${spec.operationId === 'getBacktest' ? 'backtest' : 'playbook'}, or not visible to the caller`,
    );
  responses['429'] = {
    description: 'Rate limited',
    headers: {
      'Retry-After': { $ref: '#/components/headers/RetryAfter' },
      'RateLimit-Reset': { $ref: '#/components/headers/RateLimitReset' },
      ...rateHeaders,
    },
    content: { 'application/problem+json': { schema: ref('Problem') } },
  };
  responses.default = problemResponse('Unexpected error');
  if (parameters.length) op.parameters = parameters;
  op.responses = responses;
  op.security = spec.auth ? [{ bearerAuth: [] }] : [];
  const deprecation = deprecations.find((d) => d.operationId === spec.operationId);
  if (deprecation) {
    op.deprecated = true;
    op['x-sunset'] = deprecation.sunset.toISOString().slice(0, 10);
    op['x-replaced-by'] = deprecation.replacedBy;
    op.description = `Deprecated: use \`${deprecation.replacedBy}\`. Answers carry Deprecation, Sunset and Link (rel="successor-version") headers. Sunset: ${op['x-sunset'] as string}.`;
    (success[1] as { headers?: JsonObject }).headers = {
      ...((success[1] as { headers?: JsonObject }).headers ?? {}),
      Deprecation: { description: 'RFC 9745: @<unix seconds>', schema: { type: 'string' } },
      Sunset: { description: 'RFC 8594 HTTP-date', schema: { type: 'string' } },
      Link: {
        description: `<${baseUrl}/openapi.json#${deprecation.replacedBy}>; rel="successor-version"`,
        schema: { type: 'string' },
      },
    };
  }
  return op;
}

/** Where each operation sits in the document (method and path template), after any tampering. */
export function documentedRoutes(
  dialect: DialectSpec,
  tamper: readonly OpenApiTamper[] = [],
): Map<OperationId, { method: string; path: string }> {
  const routes = new Map(
    OPERATIONS.map((spec) => [
      spec.operationId,
      { method: spec.method, path: dialect.paths[spec.operationId] },
    ]),
  );
  const pause = routes.get('pausePlaybook')!;
  const activate = routes.get('activatePlaybook')!;
  if (tamper.includes('pause-activate-swapped')) [pause.path, activate.path] = [activate.path, pause.path];
  // getPlaybook is replaced (site.ts) by the batch read, which this lie puts on the activate route.
  const batch = routes.get('batchGetPlaybooks')!;
  if (tamper.includes('read-replaced-by-post')) [batch.path, activate.path] = [activate.path, batch.path];
  // Same method and path as pausePlaybook, under another name for the parameter (distinct JSON keys).
  if (tamper.includes('duplicate-operation'))
    activate.path = pause.path.replace(`{${dialect.playbookParam}}`, '{playbookRef}');
  if (tamper.includes('writes-as-get')) {
    const taken = new Set(
      OPERATIONS.filter((o) => !o.write).map((o) => `${o.method} ${routes.get(o.operationId)!.path}`),
    );
    for (const spec of OPERATIONS) {
      const route = routes.get(spec.operationId)!;
      if (spec.write && !taken.has(`get ${route.path}`)) route.method = 'get';
    }
  }
  return routes;
}

export function openApiDocument(options: {
  baseUrl: string;
  apiUrl: string;
  deprecations: Deprecation[];
  dialect: DialectSpec;
  tamper?: readonly OpenApiTamper[];
  serversUrl?: string | null;
}): JsonObject {
  const paths: Record<string, JsonObject> = {};
  const routes = documentedRoutes(options.dialect, options.tamper);
  for (const spec of OPERATIONS) {
    const { method, path } = routes.get(spec.operationId)!;
    paths[path] ??= {};
    paths[path][method] = buildOperation(spec, path, options.dialect, options.deprecations, options.baseUrl);
  }
  // The lying "batch read" on the activate route asks for no body, so a client would send it bare.
  if (options.tamper?.includes('read-replaced-by-post'))
    delete (paths[routes.get('batchGetPlaybooks')!.path].post as JsonObject).requestBody;
  const schemas: Record<string, JsonObject> = {};
  for (const [name, schema] of Object.entries(componentSchemas)) schemas[name] = schemaOf(schema);
  return {
    openapi: '3.1.0',
    info: {
      title: `${SERVICE_NAME} API`,
      version: SERVICE_VERSION,
      summary: SUMMARY,
      description: `${SUMMARY}\n\nFind operations by operationId. Errors are RFC 9457 problem+json. ${DISCLAIMER}`,
      contact: { name: `${SERVICE_NAME} developers`, url: `${options.baseUrl}/developers.md` },
    },
    servers: [{ url: options.serversUrl ?? options.apiUrl, description: 'This service' }],
    tags: [...new Set(OPERATIONS.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key from /apikey' },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          description: 'A UUID per user-confirmed intent; reuse it with the same body to retry.',
          schema: { type: 'string', format: 'uuid' },
        },
      },
      headers: {
        RateLimit: {
          description: '"default";r=<remaining>;t=<seconds to reset>',
          schema: { type: 'string' },
        },
        RateLimitPolicy: {
          description: '"default";q=<quota>;w=<window seconds>',
          schema: { type: 'string' },
        },
        RateLimitReset: { description: 'Seconds until the limit resets', schema: { type: 'integer' } },
        RetryAfter: { description: 'Seconds or HTTP-date', schema: { type: 'string' } },
        ETag: { description: 'Strong ETag of the playbook', schema: { type: 'string' } },
      },
      schemas,
    },
  };
}
