/**
 * What the API client reports across contexts (the worker's answers, the popup's snapshot): its
 * closed list of error kinds and an error's plain form, deprecation notices and rate-limit state.
 * lib/api builds them; lib/contract/wire.ts carries them. Types and the one list of kinds only.
 */

export const API_ERROR_KINDS = [
  'validation',
  'unauthorized',
  'forbidden',
  'not-found',
  'conflict',
  'precondition-failed',
  'idempotency-mismatch',
  'rate-limited',
  'server',
  'network',
  'timeout',
  'malformed-response',
  // The OpenAPI document contradicts itself (lib/api/routes.ts): nothing is sent.
  'document-refused',
  'sunset',
  'origin-refused',
  'unconfirmed-write',
  'deferred',
] as const;
export type ApiErrorKind = (typeof API_ERROR_KINDS)[number];

/** The plain, structured-clone-safe form sent over extension messaging. */
export interface ApiErrorData {
  name: 'ApiError';
  kind: ApiErrorKind;
  operationId: string;
  message: string;
  status?: number;
  code?: string;
  /** JSON Pointer of the field (`/title`, `/tickers/0`, `/` for the whole body) → message. */
  fieldErrors?: Record<string, string>;
  /** A page the user can open to fix it (the /apikey page for 401). */
  link?: string;
  /** Epoch ms after which a deferred or rate-limited call may be tried again. */
  retryAt?: number;
  /** How many attempts were made before giving up. */
  attempts?: number;
  /** For 403: the permission the account lacks, when the problem names one. */
  missingPermission?: string;
  /** For 403: the account state that blocks the call (for example no brokerage linked). */
  accountState?: string;
}

export interface DeprecationNotice {
  operationId: string;
  /** When the operation was (or will be) deprecated, from the Deprecation header or the document. */
  deprecatedAt?: number;
  /** True when the document or a header marks it deprecated but gives no date. */
  deprecated: boolean;
  sunsetAt?: number;
  successorUrl?: string;
  replacedBy?: string;
  /** Epoch ms of the last response or resolution that said so. */
  lastSeenAt: number;
}

export interface RateLimitState {
  origin: string;
  remaining?: number;
  quota?: number;
  windowSeconds?: number;
  /** Epoch ms the current window resets, when the service said. */
  resetAt?: number;
  /** Epoch ms until which every call to this origin waits; undefined when not held. */
  heldUntil?: number;
}
