/**
 * The outbox's records (lib/writes/outbox.ts keeps and changes them): a draft the user started,
 * and the entry that carries it through its lifecycle. Pages see entries over messaging.
 */
import type { ConfirmedIntent, ShownWrite, WriteOperation } from './writes';

export type DraftOrigin = 'content-script' | 'context-menu' | 'extension-page';
/** The pages' coarse word for a state (lib/writes/lifecycle.ts statusOf): never stored. */
export type OutboxStatus = 'pending' | 'sending' | 'failed' | 'sent';

/** An outbox draft of any write: the exact operation target, body and precondition, and what was confirmed. */
export interface WriteDraft {
  /** The playbook the write acts on; bound to the operation's single path parameter when sent. */
  playbookId?: string;
  /** Drafts queued by earlier versions named the playbook here (`path.id`); read as `playbookId`. */
  path?: Record<string, string>;
  body?: Record<string, unknown>;
  ifMatch?: string;
  /** Set once the user confirms; reused unchanged by every retry of this exact body. */
  idempotencyKey?: string;
  /** A request of this draft may have reached the service (network error, timeout, 5xx): its key stays. */
  mayHaveLanded?: boolean;
  /** What the draft's window shows now, with its one-use token; Confirm must carry the token and find the same. */
  shown?: ShownWrite;
  /** The intent the user confirmed: the only thing the API client sends, and only while the entry is claimed. */
  confirmed?: ConfirmedIntent;
  /** After success: what the service answered (the new playbook's id, a page opened or why it was not). */
  result?: { playbookId?: string; url?: string; urlRefused?: string };
}

export interface OutboxEntry<T = unknown> {
  id: string;
  origin: DraftOrigin;
  /** The operation the draft will become once confirmed. */
  operationId: WriteOperation;
  draft: T;
  /** Derived for pages from the stored state (lib/writes viewOf); the stored record has none. */
  status: OutboxStatus;
  createdAt: string;
  updatedAt: string;
  /** `code` is the error kind; `problemCode` the service's own stable code (e.g. brokerage_not_linked). */
  error?: { message: string; code?: string; problemCode?: string; retryAt?: number };
  /** The draft's one confirm window, while open: Review focuses it instead of opening another. */
  windowId?: number;
}
