import { t } from '@/lib/i18n';
import { MessageError } from '@/lib/messaging/client';
import { knownCode, meaningOf } from '@/lib/messaging/errors';
import type { OutboxEntryView } from '@/lib/messaging/protocol';
import { errorParts, type ErrorParts } from '@/lib/pages/errorText';
import { DraftUnavailable } from './loadDraft';

/** A failure this window met (loading, sending, leaving), in the user's words with its record. */
export function failureParts(failure: unknown): ErrorParts {
  return failure instanceof DraftUnavailable ? failure.problem : errorParts(failure);
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
