/**
 * Finds operations by operationId in the service's OpenAPI 3.1 document and builds their URLs.
 * Method, path and parameters always come from the document, never from constants here.
 */
import { formatDate, t } from '@/lib/i18n';
import { issuesText } from '@/lib/i18n/problems';
import { z } from 'zod';
import { ApiError } from './errors';
import { HTTP_METHODS, type HttpMethod } from '@/lib/contract/writes';

export { HTTP_METHODS, type HttpMethod } from '@/lib/contract/writes';

const jsonSchemaObject = z.record(z.string(), z.unknown());

const parameterSchema = z.looseObject({
  name: z.string().min(1),
  in: z.enum(['path', 'query', 'header', 'cookie']),
  required: z.boolean().optional(),
  deprecated: z.boolean().optional(),
  schema: jsonSchemaObject.optional(),
});
const refSchema = z.looseObject({ $ref: z.string() });
const parameterOrRef = z.union([refSchema, parameterSchema]);

const securityRequirements = z.array(z.record(z.string(), z.array(z.string())));

const operationSchema = z.looseObject({
  operationId: z.string().min(1).optional(),
  deprecated: z.boolean().optional(),
  'x-sunset': z.string().optional(),
  'x-replaced-by': z.string().optional(),
  security: securityRequirements.optional(),
  parameters: z.array(parameterOrRef).optional(),
  requestBody: z
    .union([
      refSchema,
      z.looseObject({
        required: z.boolean().optional(),
        content: z.record(z.string(), z.looseObject({ schema: jsonSchemaObject.optional() })).optional(),
      }),
    ])
    .optional(),
});
type RawOperation = z.infer<typeof operationSchema>;

const pathItemSchema = z.looseObject({
  parameters: z.array(parameterOrRef).optional(),
  get: operationSchema.optional(),
  put: operationSchema.optional(),
  post: operationSchema.optional(),
  delete: operationSchema.optional(),
  options: operationSchema.optional(),
  head: operationSchema.optional(),
  patch: operationSchema.optional(),
  trace: operationSchema.optional(),
});

const serverSchema = z.looseObject({
  url: z.string(),
  variables: z.record(z.string(), z.looseObject({ default: z.string() })).optional(),
});

export const openApiDocumentSchema = z.looseObject({
  openapi: z.string().regex(/^3\./),
  servers: z.array(serverSchema).optional(),
  paths: z.record(z.string(), pathItemSchema),
  components: z.looseObject({}).optional(),
  security: securityRequirements.optional(),
});
export type OpenApiDocument = z.infer<typeof openApiDocumentSchema>;

export interface OperationParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema?: Record<string, unknown>;
}

export interface ResolvedOperation {
  operationId: string;
  /** The operationId the caller asked for, when a replacement was chosen instead. */
  requestedOperationId: string;
  method: HttpMethod;
  pathTemplate: string;
  /** Absolute server URL, possibly with a path prefix, without a trailing slash. */
  serverUrl: string;
  requiresAuth: boolean;
  parameters: OperationParameter[];
  requestBodySchema?: Record<string, unknown>;
  requestBodyRequired: boolean;
  deprecated: boolean;
  sunset?: Date;
  replacedBy?: string;
  warnings: string[];
}

/** Parses the document leniently: unknown keys stay, wrong shapes of the parts we read fail. */
export function parseOpenApiDocument(json: unknown): OpenApiDocument {
  const parsed = openApiDocumentSchema.safeParse(json);
  if (!parsed.success) {
    throw new ApiError({
      kind: 'malformed-response',
      operationId: 'openapi',
      message: t('errors.api.documentUnusable', { reason: issuesText(parsed.error.issues, 1) }),
    });
  }
  return parsed.data;
}

const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** RFC 3339 full-date (start of that day UTC) or date-time; anything else is undefined. */
export function parseSunset(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  const full = FULL_DATE.exec(text);
  if (full) {
    const [year, month, day] = [Number(full[1]), Number(full[2]), Number(full[3])];
    const at = new Date(Date.UTC(year, month - 1, day));
    // Date.UTC rolls 2025-02-30 over to March; a date that does not round-trip is not a date.
    if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day)
      return undefined;
    return at;
  }
  const dateTime = DATE_TIME.exec(text);
  if (dateTime) {
    const [month, day, hour, minute, second] = dateTime.slice(2, 7).map(Number) as [
      number,
      number,
      number,
      number,
      number,
    ];
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
      return undefined;
    const ms = Date.parse(text.replace(' ', 'T'));
    return Number.isNaN(ms) ? undefined : new Date(ms);
  }
  return undefined;
}

interface FoundOperation {
  raw: RawOperation;
  method: HttpMethod;
  pathTemplate: string;
  pathParameters: unknown[];
}

function findOperation(doc: OpenApiDocument, operationId: string): FoundOperation | undefined {
  for (const [pathTemplate, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const raw = item[method];
      if (raw?.operationId === operationId) {
        return {
          raw,
          method: method.toUpperCase() as HttpMethod,
          pathTemplate,
          pathParameters: item.parameters ?? [],
        };
      }
    }
  }
  return undefined;
}

/** One JSON-pointer segment of a `$ref` fragment, or undefined when its percent-encoding is broken. */
export function pointerSegment(raw: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * Follows a local `$ref` (`#/components/...`) inside the document, own properties only; other refs
 * are not fetched. The one `$ref` lookup of the extension: everything reading the document uses it.
 */
export function resolveLocalRef(doc: unknown, value: unknown, depth = 0): unknown {
  if (depth > 16 || typeof value !== 'object' || value === null) return value;
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref !== 'string') return value;
  if (!ref.startsWith('#/')) return undefined;
  let target: unknown = doc;
  for (const rawSegment of ref.slice(2).split('/')) {
    const segment = pointerSegment(rawSegment);
    if (segment === undefined) return undefined;
    if (typeof target !== 'object' || target === null || !Object.hasOwn(target, segment)) return undefined;
    target = (target as Record<string, unknown>)[segment];
  }
  return resolveLocalRef(doc, target, depth + 1);
}

function collectParameters(doc: OpenApiDocument, found: FoundOperation): OperationParameter[] {
  const byKey = new Map<string, OperationParameter>();
  // Operation-level parameters override path-level ones with the same name and location.
  for (const entry of [...found.pathParameters, ...(found.raw.parameters ?? [])]) {
    const parsed = parameterSchema.safeParse(resolveLocalRef(doc, entry));
    if (!parsed.success) continue;
    const { name, in: location, required, schema } = parsed.data;
    byKey.set(`${location}:${name}`, {
      name,
      in: location,
      required: location === 'path' ? true : (required ?? false),
      schema,
    });
  }
  return [...byKey.values()];
}

function requestBodyOf(
  doc: OpenApiDocument,
  raw: RawOperation,
): { schema?: Record<string, unknown>; required: boolean } {
  const body = resolveLocalRef(doc, raw.requestBody) as
    { required?: boolean; content?: Record<string, { schema?: Record<string, unknown> }> } | undefined;
  if (!body || typeof body !== 'object') return { required: false };
  const content = body.content ?? {};
  const jsonType = Object.keys(content).find((type) => /^application\/(.+\+)?json\b/i.test(type));
  return { schema: jsonType ? content[jsonType]?.schema : undefined, required: body.required === true };
}

function serverUrlOf(doc: OpenApiDocument, documentUrl: string): string {
  const server = doc.servers?.[0];
  let url = server?.url ?? '/';
  for (const [name, variable] of Object.entries(server?.variables ?? {})) {
    url = url.split(`{${name}}`).join(variable.default);
  }
  const absolute = new URL(url, documentUrl);
  absolute.search = '';
  absolute.hash = '';
  return absolute.href.replace(/(?<!\/)\/+$/, '');
}

export interface ResolveOptions {
  /** Where the document was fetched from: relative `servers` URLs resolve against it. */
  documentUrl: string;
  /**
   * A write is resolved as exactly itself: `x-replaced-by` is never followed (CONTRACT.md section
   * 2), a deprecated write is used with a warning and one past its sunset is refused.
   */
  forWrite?: boolean;
}

const MAX_REPLACEMENT_HOPS = 5;
export const SAFE_METHODS: ReadonlySet<HttpMethod> = new Set(['GET', 'HEAD']);

/**
 * The successor a deprecated operation names (`x-replaced-by`), without following it: for callers
 * that reach a POST read (GraphQL) by its own operationId when a list names it as successor.
 */
export function declaredReplacement(doc: OpenApiDocument, operationId: string): string | undefined {
  const raw = findOperation(doc, operationId)?.raw;
  return raw?.deprecated === true ? raw['x-replaced-by'] : undefined;
}

/**
 * A read follows `x-replaced-by` (at most MAX_REPLACEMENT_HOPS, never in a circle) to the first
 * current successor it may use, saying each step in `warnings`.
 */
function followReplacements(
  doc: OpenApiDocument,
  start: FoundOperation,
  operationId: string,
  now: number,
  warnings: string[],
): { found: FoundOperation; currentId: string } {
  let found = start;
  let currentId = operationId;
  const visited = new Set([operationId]);
  for (let hop = 0; hop < MAX_REPLACEMENT_HOPS && found.raw.deprecated === true; hop++) {
    const replacementId = found.raw['x-replaced-by'];
    if (!replacementId || visited.has(replacementId)) break;
    const replacement = findOperation(doc, replacementId);
    if (!replacement) {
      warnings.push(
        t('errors.deprecation.missingReplacement', { operation: currentId, replacement: replacementId }),
      );
      break;
    }
    // CONTRACT.md section 2: a read is replaced only by a read of the same kind, GET by GET. A
    // replacement of any other method (a POST, even one named like a read) is never followed.
    if (found.method !== 'GET' || replacement.method !== 'GET') {
      warnings.push(
        t('errors.deprecation.replacementNotGet', {
          operation: currentId,
          replacement: replacementId,
          method: replacement.method,
        }),
      );
      break;
    }
    const replacementSunset = parseSunset(replacement.raw['x-sunset']);
    if (replacementSunset && replacementSunset.getTime() <= now) break;
    warnings.push(t('errors.deprecation.replaced', { operation: currentId, replacement: replacementId }));
    visited.add(replacementId);
    currentId = replacementId;
    found = replacement;
  }
  return { found, currentId };
}

/**
 * The operation's sunset, read from `x-sunset`: one past refuses the call, a deprecation or an
 * unreadable sunset is said in `warnings`.
 */
function judgeSunset(
  raw: RawOperation,
  currentId: string,
  now: number,
  forWrite: boolean,
  warnings: string[],
): Date | undefined {
  const deprecated = raw.deprecated === true;
  const sunsetText = raw['x-sunset'];
  const sunset = parseSunset(sunsetText);
  if (sunsetText !== undefined && sunset === undefined) {
    warnings.push(
      t('errors.deprecation.badSunset', { operation: currentId, sunset: sunsetText.slice(0, 40) }),
    );
  }
  if (sunset && sunset.getTime() <= now) {
    throw new ApiError({
      kind: 'sunset',
      operationId: currentId,
      message: forWrite
        ? t('errors.deprecation.sunsetWrite', { operation: currentId, date: formatDate(sunset) })
        : raw['x-replaced-by']
          ? t('errors.deprecation.sunsetReplacementMissing', {
              operation: currentId,
              date: formatDate(sunset),
              replacement: raw['x-replaced-by'],
            })
          : t('errors.deprecation.sunsetRead', { operation: currentId, date: formatDate(sunset) }),
    });
  }
  if (deprecated) {
    warnings.push(
      forWrite
        ? sunset
          ? t('errors.deprecation.writeUntil', { operation: currentId, date: formatDate(sunset) })
          : t('errors.deprecation.write', { operation: currentId })
        : sunset
          ? t('errors.deprecation.readUntil', { operation: currentId, date: formatDate(sunset) })
          : t('errors.deprecation.read', { operation: currentId }),
    );
  }
  return sunset;
}

/**
 * Resolves an operationId to what the client needs to call it. A read prefers current operations:
 * a deprecated GET with a usable `x-replaced-by` naming a GET gives way to it, a deprecated one
 * without is used with a warning, and one past its sunset is refused. A write (`forWrite`) is
 * only ever itself.
 */
export function resolveOperation(
  doc: OpenApiDocument,
  operationId: string,
  now: number,
  options: ResolveOptions,
): ResolvedOperation {
  const warnings: string[] = [];
  let found = findOperation(doc, operationId);
  if (!found) {
    throw new ApiError({
      kind: 'not-found',
      operationId,
      message: t('errors.api.unknownOperation', { operation: operationId }),
    });
  }
  const followed = options.forWrite
    ? { found, currentId: operationId }
    : followReplacements(doc, found, operationId, now, warnings);
  found = followed.found;
  const currentId = followed.currentId;

  const { raw } = found;
  if (options.forWrite && SAFE_METHODS.has(found.method)) {
    throw new ApiError({
      kind: 'validation',
      operationId: currentId,
      message: t('errors.api.notSent', {
        operation: currentId,
        reason: t('errors.api.writeDeclaredAsRead', { method: found.method }),
      }),
    });
  }
  const deprecated = raw.deprecated === true;
  const sunset = judgeSunset(raw, currentId, now, options.forWrite === true, warnings);

  const security = raw.security ?? doc.security ?? [];
  // `security: []` (or only empty requirement objects) means anonymous access is allowed.
  const requiresAuth =
    security.length > 0 && security.every((requirement) => Object.keys(requirement).length > 0);
  const body = requestBodyOf(doc, raw);
  return {
    operationId: currentId,
    requestedOperationId: operationId,
    method: found.method,
    pathTemplate: found.pathTemplate,
    serverUrl: serverUrlOf(doc, options.documentUrl),
    requiresAuth,
    parameters: collectParameters(doc, found),
    requestBodySchema: body.schema,
    requestBodyRequired: body.required,
    deprecated,
    sunset,
    replacedBy: raw['x-replaced-by'],
    warnings,
  };
}

/** Every readable `x-sunset` of the document, as sorted epoch ms: the only instants a resolution can change. */
function sunsetsOf(doc: OpenApiDocument): number[] {
  const sunsets: number[] = [];
  for (const item of Object.values(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const at = parseSunset(item[method]?.['x-sunset'])?.getTime();
      if (at !== undefined && !Number.isNaN(at)) sunsets.push(at);
    }
  }
  return sunsets.sort((a, b) => a - b);
}

function frozen(operation: ResolvedOperation): ResolvedOperation {
  Object.freeze(operation.warnings);
  for (const parameter of operation.parameters) Object.freeze(parameter);
  Object.freeze(operation.parameters);
  return Object.freeze(operation);
}

export type OperationResolver = (operationId: string, now: number) => ResolvedOperation;

/**
 * resolveOperation for one document, each operation worked out once: time enters a resolution only
 * as "is this x-sunset past?", so an answer holds (frozen, shared) until the clock crosses another
 * sunset of the document. Refusals are not kept: they are worked out again on every call.
 */
export function operationResolver(doc: OpenApiDocument, options: ResolveOptions): OperationResolver {
  const sunsets = sunsetsOf(doc);
  const resolved = new Map<string, { operation: ResolvedOperation; from: number; until: number }>();
  return (operationId, now) => {
    const hit = resolved.get(operationId);
    if (hit && now >= hit.from && now < hit.until) return hit.operation;
    const operation = frozen(resolveOperation(doc, operationId, now, options));
    // The sunsets at or before `now` stay past, the later ones stay ahead, for now in [from, until).
    const from = sunsets.findLast((at) => at <= now) ?? -Infinity;
    const until = sunsets.find((at) => at > now) ?? Infinity;
    resolved.set(operationId, { operation, from, until });
    return operation;
  };
}
