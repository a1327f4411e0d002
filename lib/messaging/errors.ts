/**
 * What every error code means: one closed union (`MessageErrorCode`, lib/contract/wire.ts), one
 * spelling per code (the API client's kinds as `api.<kind>`, everywhere: on the wire and in the
 * outbox), and this one table. Pages decide what to offer and say from the table, never by
 * comparing a code or a message as text.
 */
import { API_ERROR_KINDS, type ApiErrorKind } from '@/lib/contract/api';
import { LIFECYCLE_CODES } from '@/lib/contract/writes';
import {
  MESSAGING_ERROR_CODES,
  WORKER_ERROR_CODES,
  type ApiErrorCode,
  type MessageErrorCode,
} from '@/lib/contract/wire';
import { t } from '@/lib/i18n';

/**
 * What the user must do next. `review`: open the draft's one window, which shows what will be sent.
 * `retry`: the request may not have reached the service (check the connection, then try again);
 * `retry-later`: the service answered that it is in trouble, so the connection is not the cause.
 */
export type NextStep =
  'nothing' | 'fix-fields' | 'retry' | 'retry-later' | 'wait' | 'review' | 'discard' | 'fix-account';

/** How a page shows a failure it did not expect (the popup's banner, the side panel's action line). */
export type ProblemKind =
  | 'unauthorized'
  | 'forbidden'
  | 'rate-limited'
  | 'document-refused'
  /** The service or the extension could not be reached: a cached view may stand in. */
  | 'offline'
  /** The service answered with a server error (5xx): it is in trouble, the user's connection is fine. */
  | 'service-trouble'
  /** What was read changed since: read it again. */
  | 'conflict'
  | 'other';

export interface ErrorMeaning {
  /** The same confirmed bytes may be sent again to the same URL under the same Idempotency-Key. */
  retryable: boolean;
  /** A request may have reached the service: the Idempotency-Key must never change. */
  mayHaveLanded: boolean;
  next: NextStep;
  problem: ProblemKind;
  /** A read that failed so shows the view it saved before, marked as cached (the read model). */
  cachedStandsIn: boolean;
  /** A plain default message in the UI language, used when the failure carries none of its own. */
  readonly message: string;
}

const meaning = (
  next: NextStep,
  message: () => string,
  flags: {
    retryable?: boolean;
    mayHaveLanded?: boolean;
    problem?: ProblemKind;
    cachedStandsIn?: boolean;
  } = {},
): ErrorMeaning => ({
  retryable: flags.retryable ?? false,
  mayHaveLanded: flags.mayHaveLanded ?? false,
  next,
  problem: flags.problem ?? 'other',
  cachedStandsIn: flags.cachedStandsIn ?? false,
  // Read when shown, so the message is in the UI language of that moment (and of each test).
  get message() {
    return message();
  },
});

const landed = { retryable: true, mayHaveLanded: true, problem: 'offline', cachedStandsIn: true } as const;
const troubled = { ...landed, problem: 'service-trouble' } as const;
const busy = { retryable: true, problem: 'rate-limited', cachedStandsIn: true } as const;
const generic = () => t('errors.generic');

export const ERRORS = {
  // The messaging layer's own.
  'unknown-message': meaning('nothing', () => t('errors.messaging.unknown')),
  'malformed-message': meaning('nothing', () => t('errors.messaging.malformed')),
  'sender-not-allowed': meaning('nothing', () => t('errors.messaging.senderNotAllowed')),
  'no-handler': meaning('nothing', () => t('errors.messaging.noHandler')),
  'context-invalidated': meaning('nothing', () => t('errors.messaging.updated')),
  internal: meaning('review', () => t('errors.write.internal'), { problem: 'offline' }),
  // The worker's own.
  'settings.insecure': meaning('fix-account', () => t('errors.settings.insecure')),
  'settings.not-configured': meaning('fix-account', () => t('errors.settings.notConfigured')),
  'settings.changed': meaning('fix-fields', () => t('errors.settings.changed')),
  'mcp.refused': meaning('nothing', generic),
  'mcp.unavailable': meaning('retry', generic),
  'discovery.failed': meaning('retry', generic),
  'backtest.too-large': meaning('nothing', () => t('backtests.unreadableList')),
  'backtest.malformed': meaning('nothing', () => t('backtests.unreadableList')),
  'backtest.other-playbook': meaning('nothing', () => t('backtests.otherPlaybookList')),
  'performance.other-playbook': meaning('nothing', () => t('sinceCaptured.otherPlaybook')),
  'site.invalid': meaning('fix-fields', generic),
  'site.permission-missing': meaning('fix-fields', generic),
  'site.permission-denied': meaning('fix-fields', generic),
  'playbook.unavailable': meaning('nothing', generic),
  // A write's lifecycle.
  'draft-not-found': meaning('nothing', () => t('errors.write.draftNotFound')),
  'invalid-draft': meaning('fix-fields', () => t('errors.write.invalidDraft')),
  'draft-already-sent': meaning('nothing', () => t('errors.write.draftAlreadySent')),
  'write-in-progress': meaning('wait', () => t('errors.write.writeInProgress')),
  'typed-confirmation': meaning('fix-fields', () => t('errors.write.typedConfirmation')),
  'too-many-drafts': meaning('wait', () => t('errors.write.tooManyDrafts')),
  'not-shown': meaning('review', () => t('errors.write.notShown')),
  'operation-changed': meaning('review', () => t('errors.write.operationChanged')),
  'account-changed': meaning('review', () => t('errors.write.accountChanged')),
  interrupted: meaning('retry', () => t('errors.write.interrupted'), {
    retryable: true,
    mayHaveLanded: true,
  }),
  // The API client's kinds.
  'api.validation': meaning('review', () => t('errors.write.validation')),
  'api.unauthorized': meaning('fix-account', () => t('errors.write.unauthorized'), {
    problem: 'unauthorized',
  }),
  'api.forbidden': meaning('fix-account', () => t('errors.write.forbidden'), { problem: 'forbidden' }),
  'api.not-found': meaning('discard', () => t('errors.write.notFound')),
  'api.conflict': meaning('review', () => t('errors.write.conflict')),
  'api.precondition-failed': meaning('review', () => t('errors.write.preconditionFailed'), {
    problem: 'conflict',
  }),
  'api.idempotency-mismatch': meaning('discard', () => t('errors.write.idempotencyMismatch')),
  'api.rate-limited': meaning('wait', () => t('errors.write.wait'), busy),
  'api.deferred': meaning('wait', () => t('errors.write.wait'), busy),
  'api.server': meaning('retry-later', () => t('errors.write.server'), troubled),
  'api.network': meaning('retry', () => t('errors.write.network'), landed),
  'api.timeout': meaning('retry', () => t('errors.write.timeout'), landed),
  'api.malformed-response': meaning('retry', () => t('errors.write.malformedResponse'), {
    retryable: true,
    mayHaveLanded: true,
    cachedStandsIn: true,
  }),
  'api.document-refused': meaning('wait', () => t('errors.write.documentRefused'), {
    problem: 'document-refused',
    cachedStandsIn: true,
  }),
  'api.sunset': meaning('discard', () => t('errors.write.sunset')),
  'api.origin-refused': meaning('fix-account', () => t('errors.write.originRefused')),
  'api.unconfirmed-write': meaning('review', () => t('errors.write.unconfirmedWrite')),
} as const satisfies Record<MessageErrorCode, ErrorMeaning>;

const ALL_CODES: ReadonlySet<string> = new Set([
  ...MESSAGING_ERROR_CODES,
  ...WORKER_ERROR_CODES,
  ...LIFECYCLE_CODES,
  ...API_ERROR_KINDS.map(apiCode),
]);

/** An API client's error kind as a code. */
export function apiCode(kind: ApiErrorKind): ApiErrorCode {
  return `api.${kind}`;
}

export function isMessageErrorCode(value: unknown): value is MessageErrorCode {
  return typeof value === 'string' && ALL_CODES.has(value);
}

/**
 * A code as stored or answered, in its one spelling: outbox records an earlier version wrote hold
 * a bare kind (`unauthorized`), read as `api.unauthorized`. Undefined for a code no table knows.
 */
export function knownCode(code: string | undefined): MessageErrorCode | undefined {
  if (isMessageErrorCode(code)) return code;
  const legacy = `api.${code ?? ''}`;
  return isMessageErrorCode(legacy) ? legacy : undefined;
}

/** The meaning of a stored or answered code; an unknown one (an older version's) asks for review. */
export function meaningOf(code: string | undefined): ErrorMeaning {
  const known = knownCode(code);
  return known === undefined ? ERRORS.internal : ERRORS[known];
}

/** The draft must be shown again in its window before anything is sent. */
export function needsReview(code: string | undefined): boolean {
  return meaningOf(code).next === 'review';
}
