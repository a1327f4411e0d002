/**
 * The write path's errors: one closed union of codes and one table of what each means. The
 * worker stores these codes in the outbox and answers them over messaging; pages decide what to
 * offer (Retry, Review, nothing) from the table, never by comparing a code or a message by text.
 */
import { API_ERROR_KINDS, type ApiErrorKind } from '@/lib/api/errors';
import { t } from '@/lib/i18n';
import { LIFECYCLE_CODES, type LifecycleCode } from '@/lib/contract/writes';

export type { LifecycleCode } from '@/lib/contract/writes';

export type WriteErrorCode = LifecycleCode | ApiErrorKind;

/** What the user must do next. `review`: open the draft's one window, which shows what will be sent. */
export type NextStep = 'nothing' | 'fix-fields' | 'retry' | 'wait' | 'review' | 'discard' | 'fix-account';

export interface WriteErrorMeaning {
  /** The same confirmed bytes may be sent again to the same URL under the same Idempotency-Key. */
  retryable: boolean;
  /** A request may have reached the service: the Idempotency-Key must never change. */
  mayHaveLanded: boolean;
  next: NextStep;
  /** A plain default message in the UI language, used when the failure carries none of its own. */
  readonly message: string;
}

const meaning = (
  next: NextStep,
  message: () => string,
  flags: { retryable?: boolean; mayHaveLanded?: boolean } = {},
): WriteErrorMeaning => ({
  retryable: flags.retryable ?? false,
  mayHaveLanded: flags.mayHaveLanded ?? false,
  next,
  // Read when shown, so the message is in the UI language of that moment (and of each test).
  get message() {
    return message();
  },
});

const landed = { retryable: true, mayHaveLanded: true };

export const WRITE_ERRORS = {
  'draft-not-found': meaning('nothing', () => t('errors.write.draftNotFound')),
  'invalid-draft': meaning('fix-fields', () => t('errors.write.invalidDraft')),
  'draft-already-sent': meaning('nothing', () => t('errors.write.draftAlreadySent')),
  'write-in-progress': meaning('wait', () => t('errors.write.writeInProgress')),
  'typed-confirmation': meaning('fix-fields', () => t('errors.write.typedConfirmation')),
  'too-many-drafts': meaning('wait', () => t('errors.write.tooManyDrafts')),
  'not-shown': meaning('review', () => t('errors.write.notShown')),
  'operation-changed': meaning('review', () => t('errors.write.operationChanged')),
  'account-changed': meaning('review', () => t('errors.write.accountChanged')),
  interrupted: meaning('retry', () => t('errors.write.interrupted'), landed),
  internal: meaning('review', () => t('errors.write.internal')),
  validation: meaning('review', () => t('errors.write.validation')),
  unauthorized: meaning('fix-account', () => t('errors.write.unauthorized')),
  forbidden: meaning('fix-account', () => t('errors.write.forbidden')),
  'not-found': meaning('discard', () => t('errors.write.notFound')),
  conflict: meaning('review', () => t('errors.write.conflict')),
  'precondition-failed': meaning('review', () => t('errors.write.preconditionFailed')),
  'idempotency-mismatch': meaning('discard', () => t('errors.write.idempotencyMismatch')),
  'rate-limited': meaning('wait', () => t('errors.write.wait'), { retryable: true }),
  deferred: meaning('wait', () => t('errors.write.wait'), { retryable: true }),
  server: meaning('retry', () => t('errors.write.server'), landed),
  network: meaning('retry', () => t('errors.write.network'), landed),
  timeout: meaning('retry', () => t('errors.write.timeout'), landed),
  'malformed-response': meaning('retry', () => t('errors.write.malformedResponse'), landed),
  'document-refused': meaning('wait', () => t('errors.write.documentRefused')),
  sunset: meaning('discard', () => t('errors.write.sunset')),
  'origin-refused': meaning('fix-account', () => t('errors.write.originRefused')),
  'unconfirmed-write': meaning('review', () => t('errors.write.unconfirmedWrite')),
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
