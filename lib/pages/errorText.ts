import { joinSentences, t, type TextKey } from '@/lib/i18n';
import { log } from '@/lib/log';
import { MessageError } from '@/lib/messaging/client';
import { knownCode, meaningOf, type NextStep } from '@/lib/messaging/errors';
import type { OutboxEntryView } from '@/lib/contract/wire';

/** What a page shows for a failed message: the worker's own message, or a generic line. */
export function errorText(error: unknown): string {
  return error instanceof MessageError ? error.message : t('errors.generic');
}

/** A failure in the user's terms, with the technical record kept for a "Details" line and the log. */
export interface ErrorParts {
  /** What happened and what the user can do, in the UI language. */
  message: string;
  /** The operation, status and retry budget as the worker described them; none when the message says it all. */
  details?: string;
}

/** What the user can do next, for a read that failed (a write's window says its own). */
const NEXT_STEP_TEXT: Record<NextStep, TextKey | undefined> = {
  nothing: undefined,
  'fix-fields': undefined,
  review: undefined,
  discard: undefined,
  retry: 'pageProblem.retry',
  // The service said it is in trouble: waiting helps, checking the connection does not.
  'retry-later': 'pageProblem.wait',
  wait: 'pageProblem.wait',
  'fix-account': 'pageProblem.fixAccount',
};

/**
 * A failed message as a page shows it. An API error's own message names the operation and its
 * retries ("getPlaybook failed after 1 attempt: …"): the one table's words for its code lead, and
 * that message moves to `details`. Every other failure's message is already written for the user.
 */
export function errorParts(error: unknown): ErrorParts {
  if (!(error instanceof MessageError)) return { message: t('errors.generic') };
  if (typeof error.wire.details?.operationId !== 'string') return { message: error.message };
  return apiFailureParts(error.code, error.message);
}

/** An API call's failure: the one table's words for its code and what to do, its own record as details. */
export function apiFailureParts(code: string, record: string): ErrorParts {
  const meaning = meaningOf(code);
  const next = NEXT_STEP_TEXT[meaning.next];
  return { message: next ? joinSentences(meaning.message, t(next)) : meaning.message, details: record };
}

/**
 * A failure the worker answered as data (a playbook's newest backtest that could not be read): an
 * API client's, marked by its code, is said like any other; the worker's own is already the user's.
 */
export function answeredErrorParts(answer: { error?: string; code?: string }): ErrorParts | undefined {
  if (answer.error === undefined) return undefined;
  return answer.code ? apiFailureParts(answer.code, answer.error) : { message: answer.error };
}

/**
 * The user's words for a failure, where a page has room for one line only: the technical record
 * (operation, status, retries) goes to the log under `event`.
 */
export function userErrorText(error: unknown, event: string): string {
  const parts = errorParts(error);
  if (parts.details) log.warn(event, { error: parts.details });
  return parts.message;
}

/**
 * How an earlier send of this draft failed, as the outbox stored it. An API failure was stored in
 * the API client's words ("createPlaybook failed after 3 attempts: …"): the one table's words for
 * its code lead and that record goes under Details, as for a failure this window meets itself.
 * A refusal stored with a lifecycle code is already written for the user, and stays as it is.
 */
export function storedFailure(entry: OutboxEntryView): ErrorParts | undefined {
  const error = entry.error;
  if (!error) return undefined;
  const code = knownCode(error.code);
  if (!code?.startsWith('api.')) return { message: error.message };
  const meaning = meaningOf(code);
  if (error.message === meaning.message) return { message: error.message };
  // A wait the worker keeps: it sends the same request again by itself when the service allows.
  if (error.retryAt !== undefined)
    return {
      message: t('errors.write.sentAgainLater', { message: meaning.message }),
      details: error.message,
    };
  return errorParts(
    new MessageError({ code, message: error.message, details: { operationId: entry.operationId } }),
  );
}
