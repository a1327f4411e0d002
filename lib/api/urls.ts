/**
 * A resolved operation's request URL (server URL, path with its encoded parameters, the declared
 * query) and its declared page-size bounds.
 */
import { joinSentences, t } from '@/lib/i18n';
import { ApiError } from './errors';
import type { ResolvedOperation } from './operations';

export type ParameterValue = string | number | boolean;
export type QueryValue = ParameterValue | ParameterValue[] | null | undefined;

export interface UrlArguments {
  path?: Record<string, ParameterValue>;
  query?: Record<string, QueryValue>;
  /**
   * The playbook an operation acts on: bound to the operation's single path parameter, whatever
   * the document names it (`id`, `bookId`, …). Callers never spell a parameter name for it.
   */
  playbookId?: string;
}

/** The distinct parameter names of a path template, in order. */
export function pathParameterNames(pathTemplate: string): string[] {
  return [...new Set(Array.from(pathTemplate.matchAll(/\{([^{}/]+)\}/g), (match) => match[1]))];
}

function pathValuesOf(operation: ResolvedOperation, args: UrlArguments): Record<string, ParameterValue> {
  if (args.playbookId === undefined) return args.path ?? {};
  const names = pathParameterNames(operation.pathTemplate);
  if (names.length !== 1) {
    throw new ApiError({
      kind: 'validation',
      operationId: operation.operationId,
      message: t('errors.api.notSent', {
        operation: operation.operationId,
        reason: t('errors.api.pathParameters', { count: String(names.length) }),
      }),
    });
  }
  return { ...args.path, [names[0]]: args.playbookId };
}

/** Builds the request URL: server URL (with its prefix) + path with encoded params + declared query params. */
export function buildOperationUrl(operation: ResolvedOperation, args: UrlArguments = {}): string {
  const fieldErrors: Record<string, string> = {};
  const pathValues = pathValuesOf(operation, args);
  const path = operation.pathTemplate.replace(/\{([^{}]+)\}/g, (_match, name: string) => {
    const value = Object.hasOwn(pathValues, name) ? pathValues[name] : undefined;
    const text = value === undefined ? '' : String(value);
    // "." and ".." would be normalised away by URL parsing and walk to another resource.
    if (text === '' || text === '.' || text === '..') {
      fieldErrors[`/path/${name}`] =
        text === '' ? t('errors.field.required') : t('errors.field.notIdentifier');
      return '_';
    }
    return encodeURIComponent(text);
  });
  const declaredQuery = new Set(operation.parameters.filter((p) => p.in === 'query').map((p) => p.name));
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(args.query ?? {})) {
    if (value === undefined || value === null) continue;
    if (!declaredQuery.has(name)) {
      fieldErrors[`/query/${name}`] = t('errors.field.notParameter', { operation: operation.operationId });
      continue;
    }
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  for (const parameter of operation.parameters) {
    if (parameter.in === 'query' && parameter.required && args.query?.[parameter.name] == null) {
      fieldErrors[`/query/${parameter.name}`] = t('errors.field.required');
    }
  }
  if (Object.keys(fieldErrors).length > 0) {
    throw new ApiError({
      kind: 'validation',
      operationId: operation.operationId,
      fieldErrors,
      message: t('errors.api.notSent', {
        operation: operation.operationId,
        // Each field's words are a sentence of ours (errors.field.*).
        reason: joinSentences(
          ...Object.entries(fieldErrors).map(([field, message]) => `${field}: ${message}`),
        ),
      }),
    });
  }
  const query = search.toString();
  return `${operation.serverUrl}${path.startsWith('/') ? '' : '/'}${path}${query ? `?${query}` : ''}`;
}

export interface PageSizeBounds {
  minimum: number;
  maximum: number;
  default?: number;
}

/** The `limit` bounds the operation declares (minimum, maximum, default), or undefined without a limit. */
export function pageSizeBounds(
  operation: ResolvedOperation,
  parameterName = 'limit',
): PageSizeBounds | undefined {
  const parameter = operation.parameters.find((p) => p.in === 'query' && p.name === parameterName);
  if (!parameter) return undefined;
  const schema = parameter.schema ?? {};
  const numberOr = (value: unknown, fallback: number) =>
    typeof value === 'number' && Number.isFinite(value) ? value : fallback;
  let minimum = Math.max(1, Math.ceil(numberOr(schema.minimum, 1)));
  if (typeof schema.exclusiveMinimum === 'number')
    minimum = Math.max(minimum, Math.floor(schema.exclusiveMinimum) + 1);
  let maximum = Math.floor(numberOr(schema.maximum, Number.MAX_SAFE_INTEGER));
  if (typeof schema.exclusiveMaximum === 'number')
    maximum = Math.min(maximum, Math.ceil(schema.exclusiveMaximum) - 1);
  if (maximum < minimum) maximum = minimum;
  const declaredDefault = typeof schema.default === 'number' ? Math.floor(schema.default) : undefined;
  return {
    minimum,
    maximum,
    default:
      declaredDefault === undefined ? undefined : Math.min(maximum, Math.max(minimum, declaredDefault)),
  };
}

/** Clamps a requested page size to the declared bounds; without a request the declared default wins. */
export function choosePageSize(bounds: PageSizeBounds, requested?: number): number {
  const wanted =
    requested !== undefined && Number.isFinite(requested)
      ? Math.floor(requested)
      : (bounds.default ?? Math.min(bounds.maximum, Math.max(bounds.minimum, 20)));
  return Math.min(bounds.maximum, Math.max(bounds.minimum, wanted));
}
