import { errorParts, type ErrorParts } from '@/lib/pages/errorText';
import { DraftUnavailable } from './loadDraft';

/** A failure this window met (loading, sending, leaving), in the user's words with its record. */
export function failureParts(failure: unknown): ErrorParts {
  return failure instanceof DraftUnavailable ? failure.problem : errorParts(failure);
}
