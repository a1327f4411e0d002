/**
 * Validation at both ends of a call: request bodies against the operation's JSON Schema before
 * anything is sent (@cfworker/json-schema: no eval, so it runs under the extension CSP), and
 * response bodies through a bounded reader and zod.
 */
import { joinSentences, t, type TextKey } from '@/lib/i18n';
import { fieldProblemText, firstPerField } from '@/lib/i18n/problems';
import { BodyTooLargeError, readBoundedBytes } from '@/lib/http/boundedBody';
import { dropCarriedSecrets, jsonMayCarrySecret, log } from '@/lib/log';
import { Validator, type OutputUnit } from '@cfworker/json-schema';
import type { z } from 'zod';
import { ApiError, toFieldPointer } from './errors';
import { pointerSegment, resolveLocalRef, type OpenApiDocument, type ResolvedOperation } from './operations';
import { INVALID, responseParsers } from './responseParsers.generated';
import { knownResponseSchema } from './schemas';
import {
  assertValidationCost,
  sanitizeServiceSchema,
  SchemaTooComplexError,
  type SanitizedSchema,
} from './serviceSchema';

/** Bodies above this are refused unread beyond the cap. */
export const DEFAULT_MAX_BODY_BYTES = 2 * 1024 * 1024;

// Keywords that only report "something below me failed"; the error below is the useful one.
const WRAPPER_KEYWORDS = new Set([
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  'allOf',
  'dependentSchemas',
  'if',
  'then',
  'else',
]);

const REQUIRED_PROPERTY = /required property "([^"]+)"/;

/** The words for a JSON Schema keyword that failed; any other keyword is "does not match the shape". */
const KEYWORD_PROBLEMS: Partial<Record<string, TextKey>> = {
  required: 'errors.field.required',
  false: 'errors.field.notAllowed',
  additionalProperties: 'errors.field.notAllowed',
  unevaluatedProperties: 'errors.field.notAllowed',
  type: 'errors.field.type',
  enum: 'errors.field.notAllowedValue',
  const: 'errors.field.notAllowedValue',
  format: 'errors.field.format',
  pattern: 'errors.field.format',
  // Lengths and counts are worded with their bound where the schema gives one (wordsOfUnit).
  minLength: 'errors.field.outOfBounds',
  maxLength: 'errors.field.outOfBounds',
  minItems: 'errors.field.outOfBounds',
  maxItems: 'errors.field.outOfBounds',
  minimum: 'errors.field.outOfBounds',
  maximum: 'errors.field.outOfBounds',
  exclusiveMinimum: 'errors.field.outOfBounds',
  exclusiveMaximum: 'errors.field.outOfBounds',
  multipleOf: 'errors.field.outOfBounds',
};

/** The field a failed keyword is about: for `required`, the missing property's own pointer. */
function fieldOfUnit(unit: OutputUnit): string | undefined {
  if (WRAPPER_KEYWORDS.has(unit.keyword)) return undefined;
  const pointer = toFieldPointer(unit.instanceLocation);
  const missing = unit.keyword === 'required' ? REQUIRED_PROPERTY.exec(unit.error)?.[1] : undefined;
  if (missing === undefined) return pointer;
  return `${pointer === '/' ? '' : pointer}/${missing.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/**
 * The bound a failed length or count keyword set, read at its `keywordLocation` in the (bounded)
 * schema the validator ran. The location passes through `$ref`s ("#/allOf/0/$ref/properties/…"):
 * each is followed by the extension's one `$ref` lookup (resolveLocalRef), which follows a chain of
 * them at once, so the chain's later "$ref" segments find none left. Linear in the location's length.
 */
function boundAt(schema: unknown, keywordLocation: string): number | undefined {
  if (!keywordLocation.startsWith('#/')) return undefined;
  let node: unknown = schema;
  for (const raw of keywordLocation.slice(2).split('/')) {
    if (typeof node !== 'object' || node === null) return undefined;
    if (raw === '$ref') {
      node = resolveLocalRef(schema, node);
      continue;
    }
    const segment = pointerSegment(raw);
    if (segment === undefined || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return typeof node === 'number' && Number.isSafeInteger(node) && node >= 0 ? node : undefined;
}

/** Lengths and counts with their bound: "Must not be empty.", "At least 3 characters.", "At most 20 entries." */
function boundedWords(keyword: string, bound: number): string | undefined {
  switch (keyword) {
    case 'minLength':
      return bound <= 1 ? t('errors.field.empty') : t('errors.field.tooShort', { min: bound });
    case 'maxLength':
      return t('errors.field.tooLong', { max: bound });
    case 'minItems':
      return bound <= 1 ? t('errors.field.required') : t('errors.field.tooFew', { min: bound });
    case 'maxItems':
      return t('errors.field.tooMany', { max: bound });
    default:
      return undefined;
  }
}

/** The validator's own sentence is English: the words come from the keyword that failed. */
function wordsOfUnit(unit: OutputUnit, schema: unknown): string {
  if (unit.keyword === 'required' && !REQUIRED_PROPERTY.test(unit.error)) return t('errors.field.shape');
  const bound = boundAt(schema, unit.keywordLocation);
  const bounded = bound === undefined ? undefined : boundedWords(unit.keyword, bound);
  return bounded ?? t(KEYWORD_PROBLEMS[unit.keyword] ?? 'errors.field.shape');
}

function fieldErrorsFrom(units: OutputUnit[], schema: unknown): Record<string, string> {
  return firstPerField(units, fieldOfUnit, (unit) => wordsOfUnit(unit, schema));
}

interface CheckedSchema {
  sanitized: SanitizedSchema;
  validator: Validator;
}

/** Per document and operation: the bounded schema, or why the service's schema is not used. */
const checkedSchemas = new WeakMap<OpenApiDocument, Map<string, CheckedSchema | Error>>();

function checkedSchemaFor(
  doc: OpenApiDocument,
  operation: ResolvedOperation,
  schema: unknown,
): CheckedSchema | Error {
  let perDocument = checkedSchemas.get(doc);
  if (!perDocument) {
    perDocument = new Map();
    checkedSchemas.set(doc, perDocument);
  }
  let checked = perDocument.get(operation.operationId);
  if (!checked) {
    try {
      // The walk resolves `#/components/...` in the document and copies only bounded keywords.
      const sanitized = sanitizeServiceSchema(doc, schema);
      if (sanitized.dropped.length > 0)
        log.warn('api.validate.schema-loosened', {
          operationId: operation.operationId,
          dropped: sanitized.dropped,
        });
      checked = { sanitized, validator: new Validator(sanitized.schema, '2020-12', false) };
    } catch (error) {
      checked = error instanceof Error ? error : new Error('invalid schema');
    }
    perDocument.set(operation.operationId, checked);
  }
  return checked;
}

function unusableSchema(operationId: string): ApiError {
  return new ApiError({
    kind: 'validation',
    operationId,
    message: t('errors.api.notSent', { operation: operationId, reason: t('errors.api.unusableSchema') }),
  });
}

/**
 * Throws a 'validation' ApiError with field pointers when the body does not fit the operation's schema.
 * A schema too large or costly to check in bounded time is skipped with a warning and the body goes
 * on with our own zod checks only: the service validates it again, and a hostile document must
 * neither freeze the worker nor be the reason a conforming service's writes stop working.
 */
export function validateRequestBody(doc: OpenApiDocument, operation: ResolvedOperation, body: unknown): void {
  const { operationId } = operation;
  if (body === undefined) {
    if (operation.requestBodyRequired) {
      throw new ApiError({
        kind: 'validation',
        operationId,
        fieldErrors: { '/': t('errors.field.required') },
        message: t('errors.api.notSent', { operation: operationId, reason: t('errors.api.bodyRequired') }),
      });
    }
    return;
  }
  if (!operation.requestBodySchema) return;
  const checked = checkedSchemaFor(doc, operation, operation.requestBodySchema);
  let result;
  try {
    if (checked instanceof Error) throw checked;
    assertValidationCost(checked.sanitized, body);
    result = checked.validator.validate(body);
  } catch (error) {
    if (error instanceof SchemaTooComplexError) {
      log.warn('api.validate.schema-skipped', { operationId, reason: error.message });
      return;
    }
    // A schema that cannot be used as written (an unresolvable $ref, a $ref loop) must not let the body through unchecked.
    throw unusableSchema(operationId);
  }
  if (result.valid) return;
  const fieldErrors = fieldErrorsFrom(result.errors, checked.sanitized.schema);
  if (Object.keys(fieldErrors).length === 0) fieldErrors['/'] = t('errors.field.shape');
  throw new ApiError({
    kind: 'validation',
    operationId,
    fieldErrors,
    message: t('errors.api.notSent', {
      operation: operationId,
      // Each field's words are a sentence of ours (errors.field.*).
      reason: joinSentences(
        ...Object.entries(fieldErrors)
          .slice(0, 5)
          .map(([path, message]) => `${path}: ${message}`),
      ),
    }),
  });
}

function malformed(operationId: string, message: string, status?: number): ApiError {
  return new ApiError({
    kind: 'malformed-response',
    operationId,
    status,
    message: t('errors.api.malformed', { operation: operationId, reason: message }),
  });
}

// One decoder for every body: without `stream`, decode() keeps no state between calls.
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Reads at most `maxBytes` of a body; a longer one is cancelled and refused. */
export async function readBoundedText(
  response: Response,
  operationId: string,
  maxBytes = DEFAULT_MAX_BODY_BYTES,
): Promise<string> {
  let joined: Uint8Array;
  try {
    joined = await readBoundedBytes(response, maxBytes);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    const detail =
      error.declared === undefined
        ? t('errors.api.bodyTooLong', { max: String(maxBytes) })
        : t('errors.api.bodyTooLarge', { size: String(error.declared), max: String(maxBytes) });
    throw malformed(operationId, detail, response.status);
  }
  try {
    return UTF8.decode(joined);
  } catch {
    throw malformed(operationId, t('errors.api.notUtf8'), response.status);
  }
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

export function isJsonContentType(value: string | null): boolean {
  return value !== null && JSON_TYPE.test(value.trim());
}

/** Reads a JSON body: checks the content type, the size and the syntax before anything uses it. */
export async function readJsonBody(
  response: Response,
  operationId: string,
  maxBytes = DEFAULT_MAX_BODY_BYTES,
): Promise<unknown> {
  const contentType = response.headers.get('content-type');
  if (!isJsonContentType(contentType)) {
    await response.body?.cancel().catch(() => undefined);
    throw malformed(
      operationId,
      contentType
        ? t('errors.api.notJsonType', { type: contentType.slice(0, 60) })
        : t('errors.api.noContentType'),
      response.status,
    );
  }
  const text = await readBoundedText(response, operationId, maxBytes);
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw malformed(operationId, t('errors.api.notJson'), response.status);
  }
  // A service that echoes the API key in a title, a thesis or a problem does not hand it to a page.
  return jsonMayCarrySecret(text) ? dropCarriedSecrets(value) : value;
}

/**
 * The known shapes zod's compiler turned into static code (scripts/responseParsers.ts): under the
 * extension's CSP zod runs jitless, some 20 times slower on a page of 100 playbooks.
 */
const compiledParsers = new Map<z.ZodType, (input: unknown) => unknown>(
  Object.entries(responseParsers).flatMap(([operationId, parser]) => {
    const schema = knownResponseSchema(operationId);
    return schema ? [[schema, parser] as const] : [];
  }),
);

/** Checks a decoded body against a known shape; a mismatch is 'malformed-response' naming the first bad field. */
export function parseKnownShape<T extends z.ZodType>(
  schema: T,
  value: unknown,
  operationId: string,
  status?: number,
): z.output<T> {
  // The compiled parser answers input that fits; whatever it refuses goes to zod, which says why.
  const compiled = compiledParsers.get(schema);
  if (compiled) {
    const output = compiled(value);
    if (output !== INVALID) return output as z.output<T>;
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `/${issue.path.map(String).join('/')}` : '/';
  throw malformed(
    operationId,
    t('errors.api.wrongShape', {
      field: where,
      said: issue ? fieldProblemText(issue) : t('errors.field.shape'),
    }),
    status,
  );
}
