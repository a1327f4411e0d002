/**
 * The user's words for the codes the bottom layers return (lib/contract and lib/finance carry no
 * translations: they run where the locale files are not bundled). Each table is checked by the
 * compiler: a new code without a message does not build.
 */
import type { z } from 'zod';
import type { UrlProblem } from '@/lib/contract/origins';
import type { FieldProblem } from '@/lib/contract/fieldProblems';
import type { SiteProblem } from '@/lib/contract/sites';
import { formatList } from './format';
import { t, type TextKey } from './messages';
import { joinSentences } from './sentences';

const URL_PROBLEMS: Record<UrlProblem, TextKey> = {
  empty: 'errors.url.empty',
  'not-a-url': 'errors.url.notAUrl',
  scheme: 'errors.url.scheme',
  credentials: 'errors.url.credentials',
  insecure: 'errors.url.insecure',
};

const SITE_PROBLEMS: Record<SiteProblem, TextKey> = {
  empty: 'errors.site.empty',
  'too-long': 'errors.site.tooLong',
  scheme: 'errors.site.scheme',
  credentials: 'errors.site.credentials',
  'every-site': 'errors.site.everySite',
  'bad-host': 'errors.site.badHost',
  'bad-wildcard': 'errors.site.badWildcard',
  'not-full-domain': 'errors.site.notFullDomain',
};

/** The sentence for a refused service or API URL. */
export function urlProblemText(problem: UrlProblem): string {
  return t(URL_PROBLEMS[problem]);
}

/** The sentence for a refused site address; `input` is the part it is about, shown as typed. */
export function siteProblemText(problem: SiteProblem, input = ''): string {
  return t(SITE_PROBLEMS[problem], { input });
}

export type { FieldProblem };

const FIELD_PROBLEMS: Record<FieldProblem, TextKey> = {
  'http-url': 'errors.field.httpUrl',
  'dates-not-ascending': 'errors.field.notAscending',
  // `params.max` is the real bound, also when a cheaper, looser check found the string too long.
  'too-long': 'errors.field.tooLong',
};

/** How many extra keys an issue names, and how much of each: the keys are whatever was sent. */
const MAX_KEYS_NAMED = 3;
const MAX_KEY_LENGTH = 40;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The number and string entries of a refinement's params (its problem's placeholders). */
function paramValues(params: Record<string, unknown> | undefined): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(params ?? {}))
    if (typeof value === 'number' || typeof value === 'string') values[name] = value;
  return values;
}

function isFieldProblem(value: unknown): value is FieldProblem {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(FIELD_PROBLEMS, value);
}

/**
 * A field's problem in the UI language, chosen from the zod issue's code and bound, never from
 * zod's English message. A refinement's own message (`custom`) is kept when it names no
 * FieldProblem: the extension's own refinements word theirs with t() already.
 */
export function fieldProblemText(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string')
        return min > 1 ? t('errors.field.tooShort', { min }) : t('errors.field.empty');
      if (issue.origin === 'array' || issue.origin === 'set')
        return min > 1 ? t('errors.field.tooFew', { min }) : t('errors.field.required');
      return t('errors.field.outOfBounds');
    }
    case 'too_big':
      if (issue.origin === 'string') return t('errors.field.tooLong', { max: Number(issue.maximum) });
      if (issue.origin === 'array' || issue.origin === 'set')
        return t('errors.field.tooMany', { max: Number(issue.maximum) });
      // A number, a bigint, a date: its bound is not a count of characters or entries.
      return t('errors.field.outOfBounds');
    case 'invalid_type':
      return t('errors.field.type');
    case 'invalid_value':
      return t('errors.field.notAllowedValue');
    case 'unrecognized_keys': {
      const named = issue.keys.slice(0, MAX_KEYS_NAMED).map((key) => clip(key, MAX_KEY_LENGTH));
      if (issue.keys.length > MAX_KEYS_NAMED) named.push('…');
      return t('errors.field.unknownKeys', { keys: formatList(named) });
    }
    case 'invalid_format':
      return t('errors.field.format');
    case 'custom': {
      const problem: unknown = issue.params?.problem;
      return isFieldProblem(problem) ? t(FIELD_PROBLEMS[problem], paramValues(issue.params)) : issue.message;
    }
    default:
      return t('errors.field.shape');
  }
}

/**
 * One line per field, the first problem of each: what a form shows. Kept in a Map and returned as
 * own properties, so a field named `__proto__` or `toString` is a field like any other; at most
 * `max` fields. `words` is asked only for each field's first problem. `fieldOf` returning
 * undefined skips an item.
 */
export function firstPerField<T>(
  items: Iterable<T>,
  fieldOf: (item: T) => string | undefined,
  words: (item: T) => string,
  max = Number.POSITIVE_INFINITY,
): Record<string, string> {
  const fields = new Map<string, string>();
  for (const item of items) {
    const field = fieldOf(item);
    if (field === undefined || fields.has(field)) continue;
    if (fields.size === max) break;
    fields.set(field, words(item));
  }
  return Object.fromEntries(fields);
}

/**
 * "openapi: Not in the expected form. servers: Required.": the first `max` issues, each at its
 * path (as in the document, not translated) with the UI language's words, one sentence each.
 */
export function issuesText(issues: readonly z.core.$ZodIssue[], max = 5): string {
  return joinSentences(
    ...issues
      .slice(0, max)
      .map((issue) => `${issue.path.map(String).join('.') || '/'}: ${fieldProblemText(issue)}`),
  );
}
