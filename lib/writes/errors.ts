/**
 * The write path's errors: one closed union of codes and one table of what each means. The
 * worker stores these codes in the outbox and answers them over messaging; pages decide what to
 * offer (Retry, Review, nothing) from the table, never by comparing a code or a message by text.
 */
import { API_ERROR_KINDS, type ApiErrorKind } from '@/lib/api/errors';

/** Codes the write lifecycle itself gives, beside the API client's error kinds. */
const LIFECYCLE_CODES = [
  'draft-not-found',
  'invalid-draft',
  'draft-already-sent',
  'write-in-progress',
  'typed-confirmation',
  'too-many-drafts',
  /** Confirm without the token of the window that shows the draft now (never shown, or a stale window). */
  'not-shown',
  /** The operation resolves to another method or URL than the window showed. */
  'operation-changed',
  /** The key, account or API origin differs from what the window showed or the user confirmed. */
  'account-changed',
  'interrupted',
  'internal',
] as const;

export type LifecycleCode = (typeof LIFECYCLE_CODES)[number];
export type WriteErrorCode = LifecycleCode | ApiErrorKind;

/** What the user must do next. `review`: open the draft's one window, which shows what will be sent. */
export type NextStep = 'nothing' | 'fix-fields' | 'retry' | 'wait' | 'review' | 'discard' | 'fix-account';

export interface WriteErrorMeaning {
  /** The same confirmed bytes may be sent again to the same URL under the same Idempotency-Key. */
  retryable: boolean;
  /** A request may have reached the service: the Idempotency-Key must never change. */
  mayHaveLanded: boolean;
  next: NextStep;
  /** A plain default message, used when the failure carries none of its own. */
  message: string;
}

const meaning = (
  next: NextStep,
  message: string,
  flags: { retryable?: boolean; mayHaveLanded?: boolean } = {},
): WriteErrorMeaning => ({
  retryable: flags.retryable ?? false,
  mayHaveLanded: flags.mayHaveLanded ?? false,
  next,
  message,
});

const landed = { retryable: true, mayHaveLanded: true };

export const WRITE_ERRORS = {
  'draft-not-found': meaning('nothing', 'This draft no longer exists.'),
  'invalid-draft': meaning('fix-fields', 'Some fields need attention.'),
  'draft-already-sent': meaning('nothing', 'This draft was already sent.'),
  'write-in-progress': meaning('wait', 'This write is already being sent.'),
  'typed-confirmation': meaning('fix-fields', 'Type the name exactly to confirm.'),
  'too-many-drafts': meaning('wait', 'Too many drafts in a short time. Wait a minute, then try again.'),
  'not-shown': meaning(
    'review',
    'This action is not what the confirm window shows now. Nothing was sent. Review and confirm again.',
  ),
  'operation-changed': meaning(
    'review',
    'The service changed how this action is sent. Nothing was sent. Review and confirm again.',
  ),
  'account-changed': meaning(
    'review',
    'The service, account or API key changed since this was shown. Nothing was sent. Review where it goes and confirm again.',
  ),
  interrupted: meaning(
    'retry',
    'Sending was interrupted. Retry sends the same request again; it cannot create a duplicate.',
    landed,
  ),
  internal: meaning('review', 'The write could not be sent.'),
  validation: meaning('review', 'The service refused the request as it stands.'),
  unauthorized: meaning('fix-account', 'The API key was refused.'),
  forbidden: meaning('fix-account', 'The account may not do this.'),
  'not-found': meaning('discard', 'The service does not know this item.'),
  conflict: meaning('review', 'The service reports a conflict.'),
  'precondition-failed': meaning('review', 'The item changed since it was read.'),
  'idempotency-mismatch': meaning(
    'discard',
    'An earlier attempt of this write already reached the service with the content you first confirmed, so this edited version was not sent: nothing was written twice. Discard this draft and check your playbooks.',
  ),
  'rate-limited': meaning('wait', 'The service asked to wait before sending again.', { retryable: true }),
  deferred: meaning('wait', 'The service asked to wait before sending again.', { retryable: true }),
  server: meaning('retry', 'The service failed.', landed),
  network: meaning('retry', 'The service could not be reached.', landed),
  timeout: meaning('retry', 'The service did not answer in time.', landed),
  'malformed-response': meaning('retry', 'The service answered with something unreadable.', landed),
  sunset: meaning('discard', 'The service no longer accepts this action.'),
  'origin-refused': meaning('fix-account', 'The service points elsewhere than the configured API.'),
  'unconfirmed-write': meaning(
    'review',
    'This write was not sent as confirmed. Nothing was sent. Review and confirm again.',
  ),
} as const satisfies Record<WriteErrorCode, WriteErrorMeaning>;

const ALL_CODES: ReadonlySet<string> = new Set([...LIFECYCLE_CODES, ...API_ERROR_KINDS]);

export function isWriteErrorCode(value: unknown): value is WriteErrorCode {
  return typeof value === 'string' && ALL_CODES.has(value);
}

/**
 * The code an unsent write is refused with: the lifecycle code the API client gave its refusal
 * (operation-changed, account-changed: typed by this file's union), or else unconfirmed-write.
 */
export function refusalCode(code: string | undefined): LifecycleCode | 'unconfirmed-write' {
  const known = LIFECYCLE_CODES.find((lifecycle) => lifecycle === code);
  return known ?? 'unconfirmed-write';
}

/** The meaning of a stored or answered code; an unknown one (an older version's) asks for review. */
export function meaningOf(code: string | undefined): WriteErrorMeaning {
  if (code !== undefined && isWriteErrorCode(code)) return WRITE_ERRORS[code];
  // Answers cross messaging as `api.<kind>`.
  const kind = code?.startsWith('api.') ? code.slice(4) : undefined;
  if (kind !== undefined && isWriteErrorCode(kind)) return WRITE_ERRORS[kind];
  return WRITE_ERRORS.internal;
}

/** The draft must be shown again in its window before anything is sent. */
export function needsReview(code: string | undefined): boolean {
  return meaningOf(code).next === 'review';
}
