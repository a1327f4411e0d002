/**
 * The one error type of the API client. Every failure a caller can see is an ApiError with a
 * kind, the operation that failed and a user-facing message built from templates and the
 * service's problem body — never from request headers, so the API key cannot end up in it.
 *
 * Every message a page can show comes from the `errors.*` keys of locales/<lang>.yml (lib/i18n's
 * t() and plural(), in the worker's UI language, which is the pages'). The operationId, origins
 * and the service's own sentence are placeholder values, inserted once and never translated.
 * Left in English on purpose, because no page shows them: log event names and their fields; the
 * abort reason 'The attempt timed out.' (lib/api/transport.ts, replaced by errors.api.timeout);
 * lib/messaging/dispatch.ts's register() errors (a wiring fault at worker start); the `why` column
 * of lib/store/inventory.ts (documentation of what is stored). Text made by the service stays as
 * sent; zod issues and JSON Schema validator errors are worded from their codes and keywords
 * (lib/i18n/problems.ts fieldProblemText, lib/api/validate.ts), never with the library's English.
 */
import { formatClock, formatRelative, joinSentences, endSentence, t } from '@/lib/i18n';
import { firstPerField } from '@/lib/i18n/problems';
import { maskSecrets, secretMaskOf } from '@/lib/log';
import { maskDeep, MIN_FRAGMENT } from '@/lib/log/secretMask';
import type { Problem } from './schemas';
import type { ApiErrorData, ApiErrorKind } from '@/lib/contract/api';

export { API_ERROR_KINDS, type ApiErrorData, type ApiErrorKind } from '@/lib/contract/api';

export type ApiErrorInit = Omit<ApiErrorData, 'name'>;

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly operationId: string;
  readonly status?: number;
  readonly code?: string;
  readonly fieldErrors?: Record<string, string>;
  readonly link?: string;
  readonly retryAt?: number;
  readonly attempts?: number;
  readonly missingPermission?: string;
  readonly accountState?: string;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.kind = init.kind;
    this.operationId = init.operationId;
    this.status = init.status;
    this.code = init.code;
    this.fieldErrors = init.fieldErrors;
    this.link = init.link;
    this.retryAt = init.retryAt;
    this.attempts = init.attempts;
    this.missingPermission = init.missingPermission;
    this.accountState = init.accountState;
  }

  toJSON(): ApiErrorData {
    const data: ApiErrorData = {
      name: 'ApiError',
      kind: this.kind,
      operationId: this.operationId,
      message: this.message,
    };
    if (this.status !== undefined) data.status = this.status;
    if (this.code !== undefined) data.code = this.code;
    if (this.fieldErrors !== undefined) data.fieldErrors = { ...this.fieldErrors };
    if (this.link !== undefined) data.link = this.link;
    if (this.retryAt !== undefined) data.retryAt = this.retryAt;
    if (this.attempts !== undefined) data.attempts = this.attempts;
    if (this.missingPermission !== undefined) data.missingPermission = this.missingPermission;
    if (this.accountState !== undefined) data.accountState = this.accountState;
    return data;
  }

  /** A copy with more context (attempt count, retry time) without losing the original kind. */
  with(extra: Partial<ApiErrorInit>): ApiError {
    return new ApiError({ ...this.toJSON(), ...extra });
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** Turns any path the service or the validator gives (`title`, `#/source/url`, `tickers.0`) into a JSON Pointer. */
export function toFieldPointer(path: string | undefined): string {
  if (path === undefined) return '/';
  let trimmed = path.trim();
  if (trimmed.startsWith('#')) trimmed = trimmed.slice(1);
  if (trimmed.startsWith('$')) trimmed = trimmed.slice(1);
  if (trimmed === '' || trimmed === '/') return '/';
  if (trimmed.startsWith('/')) return trimmed;
  const segments = trimmed
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((segment) => segment !== '');
  if (segments[0] === 'body') segments.shift();
  return `/${segments.join('/')}`;
}

/** The site page where a user signs in and creates a key. */
export function apiKeyPageUrl(siteUrl: string): string {
  return new URL('/apikey', siteUrl).href;
}

export interface ErrorFromStatusInput {
  operationId: string;
  status: number;
  problem?: Problem;
  /** Where the /apikey page lives ({base_url}). */
  siteUrl: string;
  /** True when the request carried an Idempotency-Key, so 422 means another body under the same key. */
  idempotent?: boolean;
  retryAt?: number;
}

const MAX_PROBLEM_TEXT = 300;

/** Fields a validation error keeps (a form shows one line each), and how many its message names. */
const MAX_FIELD_ERRORS = 20;
const MAX_SUMMARY_FIELDS = 5;

/**
 * The service's words on one line, at most MAX_PROBLEM_TEXT characters; they are shown to the
 * user as text. Screened before the cut (lib/log maskSecrets): words that hold the key in any
 * form, zero-width characters, fullwidth or reversed included, become one plain sentence whole,
 * and no cut can leave a usable part of it.
 */
function clippedText(text: string): string {
  const flat = maskSecrets(text).replace(/\s+/g, ' ').trim();
  return flat.length > MAX_PROBLEM_TEXT ? `${flat.slice(0, MAX_PROBLEM_TEXT)}…` : flat;
}

function problemText(problem: Problem | undefined): string | undefined {
  const text = problem?.detail ?? problem?.title;
  if (text === undefined) return undefined;
  const flat = clippedText(text);
  return flat === '' ? undefined : flat;
}

function pickString(problem: Problem | undefined, names: string[]): string | undefined {
  if (problem === undefined) return undefined;
  const record = problem as Record<string, unknown>;
  for (const name of names) {
    const value = record[name];
    if (typeof value === 'string' && value.trim() !== '') return clippedText(value);
    if (Array.isArray(value) && value.every((item) => typeof item === 'string') && value.length > 0) {
      return clippedText(value.slice(0, MAX_SUMMARY_FIELDS).join(', '));
    }
  }
  return undefined;
}

function fieldErrorsOf(problem: Problem | undefined): Record<string, string> | undefined {
  if (!problem?.errors || problem.errors.length === 0) return undefined;
  return firstPerField(
    problem.errors,
    (item) => clippedText(toFieldPointer(item.path)),
    (item) => clippedText(item.message),
    MAX_FIELD_ERRORS,
  );
}

/**
 * "at 14:05 (in 3 minutes)": when a rate-limited or deferred call may be tried again, in the UI
 * language. The relative part is measured from now, when the message is built.
 */
export function retryTime(at: number, now: number = Date.now()): string {
  return t('errors.api.retryTime', { time: formatClock(at), relative: formatRelative(at, now) });
}

/**
 * Maps an HTTP error status and its problem body to the ApiError the interface prescribes. The
 * operationId and the service's own words (`said`) are placeholder values: inserted once, as sent.
 */
// eslint-disable-next-line max-lines-per-function -- the one table of what each HTTP status means: one branch per status, read top to bottom
export function errorFromStatus(input: ErrorFromStatusInput): ApiError {
  const { operationId, status, problem } = input;
  const operation = operationId;
  const code = problem?.code === undefined ? undefined : maskSecrets(problem.code);
  const said = problemText(problem);
  const base = { operationId, status, code };
  if (status === 401) {
    const link = apiKeyPageUrl(input.siteUrl);
    return new ApiError({
      ...base,
      kind: 'unauthorized',
      link,
      message: t('errors.api.unauthorized', { operation, link }),
    });
  }
  if (status === 403) {
    const missingPermission = pickString(problem, [
      'missing_permission',
      'required_permission',
      'permission',
      'permissions',
    ]);
    const accountState = pickString(problem, ['account_state', 'accountState', 'state']);
    const reason = missingPermission
      ? t('errors.api.forbiddenPermission', { operation, permission: missingPermission })
      : accountState
        ? t('errors.api.forbiddenState', { operation, state: accountState })
        : t('errors.api.forbidden', { operation });
    return new ApiError({
      ...base,
      kind: 'forbidden',
      missingPermission,
      accountState,
      message: said ? joinSentences(reason, endSentence(said)) : reason,
    });
  }
  if (status === 400 || (status === 422 && !input.idempotent)) {
    const fieldErrors = fieldErrorsOf(problem);
    // The message names the first few fields; `fieldErrors` keeps them all (bounded) for a form.
    const entries = fieldErrors ? Object.entries(fieldErrors) : [];
    const summary = fieldErrors
      ? entries
          .slice(0, MAX_SUMMARY_FIELDS)
          .map(([path, message]) => `${path}: ${message}`)
          .join(t('common.separator.clause')) + (entries.length > MAX_SUMMARY_FIELDS ? '…' : '')
      : said;
    return new ApiError({
      ...base,
      kind: 'validation',
      fieldErrors,
      message: summary
        ? t('errors.api.invalidSaid', { operation, said: summary })
        : t('errors.api.invalid', { operation }),
    });
  }
  if (status === 422) {
    return new ApiError({
      ...base,
      kind: 'idempotency-mismatch',
      message: t('errors.api.idempotencyMismatch', { operation }),
    });
  }
  if (status === 404 || status === 410) {
    return new ApiError({
      ...base,
      kind: 'not-found',
      message: said
        ? t('errors.api.notFoundSaid', { operation, said })
        : t('errors.api.notFound', { operation }),
    });
  }
  if (status === 409) {
    return new ApiError({
      ...base,
      kind: 'conflict',
      message: said
        ? t('errors.api.conflictSaid', { operation, said })
        : t('errors.api.conflict', { operation }),
    });
  }
  if (status === 412) {
    return new ApiError({
      ...base,
      kind: 'precondition-failed',
      message: t('errors.api.preconditionFailed', { operation }),
    });
  }
  if (status === 429) {
    return new ApiError({
      ...base,
      kind: 'rate-limited',
      retryAt: input.retryAt,
      message:
        input.retryAt !== undefined
          ? t('errors.api.rateLimitedUntil', { operation, time: retryTime(input.retryAt) })
          : t('errors.api.rateLimited', { operation }),
    });
  }
  if (status >= 500) {
    return new ApiError({
      ...base,
      kind: 'server',
      message: said
        ? t('errors.api.serverSaid', { operation, status: String(status), said })
        : t('errors.api.server', { operation, status: String(status) }),
    });
  }
  return new ApiError({
    ...base,
    kind: 'validation',
    message: said
      ? t('errors.api.refusedSaid', { operation, status: String(status), said })
      : t('errors.api.refused', { operation, status: String(status) }),
  });
}

/**
 * Screens every string of an error for the secret (lib/log/secretMask.ts), in case the service
 * echoed it back (whole, cut, split across fields, or disguised): a string that holds it in any
 * form becomes one plain sentence, whole; raw fragments elsewhere are masked.
 */
export function scrubSecret(error: ApiError, secret: string | undefined): ApiError {
  const mask = secretMaskOf(secret && secret.length >= MIN_FRAGMENT ? [secret] : []);
  const data = maskDeep(error.toJSON(), mask);
  const clean = (text: string) => maskSecrets(text);
  return new ApiError({
    ...data,
    message: clean(data.message),
    fieldErrors: data.fieldErrors
      ? Object.fromEntries(
          Object.entries(data.fieldErrors).map(([path, message]) => [clean(path), clean(message)]),
        )
      : undefined,
    code: data.code === undefined ? undefined : clean(data.code),
    missingPermission: data.missingPermission === undefined ? undefined : clean(data.missingPermission),
    accountState: data.accountState === undefined ? undefined : clean(data.accountState),
    link: data.link === undefined ? undefined : clean(data.link),
  });
}
