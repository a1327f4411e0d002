/**
 * A write as it crosses contexts and is stored: which operations exist, how one resolved in the
 * OpenAPI document, what a confirm window showed and what the user confirmed, and the write
 * lifecycle's own error codes. lib/api and lib/writes act on them; the outbox stores them.
 */

export const WRITE_OPERATIONS = [
  'createPlaybook',
  'updatePlaybook',
  'runBacktest',
  'activatePlaybook',
  'pausePlaybook',
  'createCheckoutSession',
  'createBrokerageLink',
] as const;
export type WriteOperation = (typeof WRITE_OPERATIONS)[number];

/**
 * The states of a write, as its outbox record stores them (lib/writes/lifecycle.ts has the steps
 * between them): drafted → shown → confirmed → claimed → sent → settled, or failed or refused.
 */
export const WRITE_STATES = [
  'drafted',
  'shown',
  'confirmed',
  'claimed',
  'sent',
  'settled',
  'failed',
  'refused',
] as const;
export type WriteState = (typeof WRITE_STATES)[number];

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = Uppercase<(typeof HTTP_METHODS)[number]>;

/** How a write resolved in the OpenAPI document: what the confirm window shows and the confirmation binds. */
export interface WriteResolution {
  operationId: WriteOperation;
  method: HttpMethod;
  /** The full URL: server URL, path with the playbook id in place, no query. */
  url: string;
}

/**
 * The intent the user confirmed, stored in the outbox entry and the only thing the client sends:
 * the resolved operation, the exact body bytes, where it goes and with which key.
 */
export interface ConfirmedIntent extends WriteResolution {
  /** Canonical JSON of the confirmed body, sent as these exact bytes; null when there is no body. */
  body: string | null;
  ifMatch?: string;
  /** UUID generated when the user confirms; reused unchanged by every retry of this write. */
  idempotencyKey: string;
  /** Which key the user confirmed with (lib/store/apiKey fingerprint), never the key itself. */
  keyFingerprint?: string;
  /** The account the confirm window named, when the service answered getAccount. */
  accountId?: string;
  serviceUrl: string;
  apiUrl: string;
  /** SHA-256 of the document's contract for this write when it was confirmed (WritePreview.contract). */
  operationDigest?: string;
}

/** What one confirm window showed: the resolved request, the body, and where and as whom it goes. */
export interface ShownWrite extends WriteResolution {
  /** Random, per window load: a Confirm carrying any other token sends nothing. */
  token: string;
  /** The tab of the draft's window the token was given to: only a Confirm from that tab sends. */
  tabId?: number;
  /** SHA-256 of the canonical JSON of the stored body the window loaded. */
  bodyDigest: string;
  /** The account the window named (from getAccount), when the service answered. */
  accountId?: string;
  /** Fingerprint of the key the window was shown under, never the key. */
  keyFingerprint?: string;
  /** Origin of the API URL the request goes to. */
  apiOrigin: string;
  /** The API URL and service URL themselves (compared when both sides name them). */
  apiUrl?: string;
  serviceUrl?: string;
  /** SHA-256 of what the document said about sending this write (deprecation, sunset, auth, schema…). */
  operationDigest?: string;
}

/** Codes the write lifecycle itself gives, beside the API client's error kinds. */
export const LIFECYCLE_CODES = [
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
