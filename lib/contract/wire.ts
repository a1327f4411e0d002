/**
 * The shapes that cross between the worker and the pages (answers, states, the wire error): types
 * only, apart from the worker's closed list of error codes and the cursor bound.
 * lib/messaging/protocol.ts holds the messages that carry them and re-exports every name, so
 * importers need not know the split. Part of the bottom layer: lower folders (the store's popup
 * snapshot, backtests) name these types here.
 */
import type { ApiErrorData, ApiErrorKind, DeprecationNotice, RateLimitState } from './api';
import type { LifecycleCode } from './writes';
import type { Account, Playbook, ServiceStatus } from './service';
import type { OutboxEntry, WriteDraft } from './outbox';
import type { Backtest } from './backtest';
import type { Catalyst } from './catalyst';

export type OutboxEntryView = OutboxEntry;

/**
 * The longest list cursor that crosses to a page and back ("Load more"): the worker ends a list
 * whose cursor is longer (lib/api/pagination.ts) and the messages refuse one (lib/messaging).
 */
export const MAX_CURSOR_LENGTH = 2048;

/** How long before a catalyst its reminder is shown (options page, select "Catalyst reminders"). */
export const REMINDER_LEADS = ['off', 'same-day', '1-day', '3-days', '1-week'] as const;
export type ReminderLead = (typeof REMINDER_LEADS)[number];
export const DEFAULT_REMINDER_LEAD: ReminderLead = '1-day';

/** Local times as minutes since midnight (0–1439); `end` before `start` wraps midnight; equal is off. */
export interface QuietHours {
  start: number;
  end: number;
}

export interface SettingsState {
  serviceUrl: string;
  apiUrl: string;
  pollMinutes: number;
  /** Absent in settings saved before reminders: DEFAULT_REMINDER_LEAD. */
  reminderLead?: ReminderLead;
  /** Off when absent or null. */
  quietHours?: QuietHours | null;
}

export interface HostAccessState {
  /** Origins of the configured service that still lack a host permission. */
  missingOrigins: string[];
}

/** Saved URLs that break the https rule (saved by an older version): nothing is sent until fixed. */
export interface InsecureSettingsState {
  /** The origins that would carry the key over plain http. */
  urls: string[];
  /** The sentence the popup and the options page show. */
  message: string;
}

/**
 * What pages may know of the stored key: that there is one, and when it was saved. Not a single
 * character of it leaves the worker, not even the last four.
 */
export interface KeyState {
  set: boolean;
  /** When the user saved it (epoch ms), so they can tell keys apart; absent for older records. */
  savedAt?: number;
}

export interface AppState {
  version: string;
  settings: SettingsState;
  key: KeyState;
  hostAccess: HostAccessState;
  /** Present only when the saved service or API URL may not carry the key. */
  insecureSettings?: InsecureSettingsState;
  /**
   * Present only before the first-run setup saved a service (a fresh store install): the worker
   * sends nothing, and the popup and side panel point to the setup instead of reading.
   */
  serviceSetup?: 'needed';
}

/** Where a read came from, so a surface can say "cached, updated 3 min ago" honestly. */
export interface Freshness {
  source: 'network' | 'cache';
  fetchedAt: number;
  /** Set when the cache is shown because the network answer is still coming or failed. */
  stale?: Staleness;
}

/** A detail read's last good answer shown because the service could not be reached: when it was saved, and the wire error's code. */
export interface SavedCopy {
  savedAt: number;
  code?: string;
}

/** An answer the read model may answer from its saved copy (lib/background/readModel.ts keptRead). */
export type Kept<T> = T & { saved?: SavedCopy };

/** Why a cached copy is shown: a typed field, so no surface compares display text. */
export type Staleness =
  /** A fresh read is under way; not a failure. */
  | { kind: 'refreshing' }
  /** The fresh read failed; `reason` is the user-facing message of why, `code` the wire error's. */
  | { kind: 'failed'; reason: string; code?: string };

/** A playbook that tracks a ticker of the page in a tab, from the worker's cache of list pages. */
export interface PageMatch {
  id: string;
  title: string;
  /** The page's tickers this playbook tracks. */
  tickers: string[];
}

export interface PageMatches {
  /** The tickers the tab's content script reported; empty when none or not a finance page. */
  tickers: string[];
  matches: PageMatch[];
}

export interface PlaybookPage extends Freshness {
  items: Playbook[];
  nextCursor: string | null;
  /** Never claim completeness while the service says there is more. */
  hasMore: boolean;
}

/**
 * One playbook as the side panel's detail shows it: fresh from the service, or the copy the read
 * model saved when it was last seen (opened, or on a cached list page) while the service cannot
 * be reached.
 */
export interface PlaybookRead extends Freshness {
  playbook: Playbook;
}

export interface BacktestPage {
  items: Backtest[];
  nextCursor: string | null;
  hasMore: boolean;
}

/** A playbook's upcoming catalysts, soonest first (lib/catalysts/reads.ts). */
export interface CatalystList {
  items: Catalyst[];
  /** False when the list was cut at its bound or a cursor led nowhere: "more may follow". */
  complete: boolean;
  /** The API origin, which names the calendar's UIDs (`<id>@<host>`); never user-info or a key. */
  apiOrigin: string;
}

/** A playbook's newest completed backtest, or why there is none to show. */
export interface LatestBacktest {
  playbookId: string;
  backtest?: Backtest;
  /** Set when it could not be read (the message the page shows). */
  error?: string;
  /** The failure's code when it was the API client's (`api.<kind>`): `error` is then its technical record. */
  code?: ApiErrorCode;
}

/** A draft as the popup lists it: the worker names the operation, so the popup needs no table of writes. */
export type PopupDraft = OutboxEntryView & { label: string };

/** What the popup shows at once: the first page of the user's playbooks, the status and the account. */
export interface PopupSnapshot {
  /** Service URL and key fingerprint it was read for; another binding is never shown. */
  binding: string;
  state: AppState;
  /** The first page of "mine, all visibilities"; absent without a key. */
  page?: PlaybookPage;
  overview?: ServiceOverview;
  outbox: PopupDraft[];
  /**
   * The return since capture (a fraction) of the first page's playbooks, by id, where known: the
   * rows' short figure, painted with the rows (lib/background/popupReturns.ts fills it).
   */
  returns?: Record<string, number>;
  savedAt: number;
}

/** The answer to `openPopup`: the snapshot it saved, and why the first page is missing when it is. */
export type PopupOpened = PopupSnapshot & { pageError?: WireError };

export interface ServiceOverview {
  status?: ServiceStatus;
  statusError?: ApiErrorData;
  account?: Account;
  accountError?: ApiErrorData;
  discovery?: {
    fetchedAt: string;
    documentsOk: number;
    documentsFailed: number;
    skillsVerified: number;
    skillsFailed: number;
    stale: boolean;
  };
  deprecations: DeprecationNotice[];
  rateLimit?: RateLimitState;
}

/** What the confirm window shows for a pending write. */
export interface PendingWrite {
  entry: OutboxEntry<WriteDraft>;
  account?: { name: string; email: string; plan: string };
  /** For live execution and billing: what the user must type to confirm. */
  typeToConfirm?: string;
  /** Plain words on what will happen, e.g. "Live automation will place orders…". */
  consequence: string;
  /** How the current OpenAPI document resolves this write: shown, and bound by Confirm. */
  resolved?: { method: string; url: string; path: string; deprecated: boolean; warnings: string[] };
  /** Why this write cannot be sent as the document stands (sunset, refused document…). */
  refusal?: string;
  /** This window's confirmation token: Confirm carries it back; a newer window's replaces it. */
  token?: string;
}

/** The messaging layer's own failures (lib/messaging/dispatch.ts, client.ts). */
export const MESSAGING_ERROR_CODES = [
  'unknown-message',
  'malformed-message',
  'sender-not-allowed',
  'no-handler',
  'context-invalidated',
  'internal',
] as const;
export type MessagingErrorCode = (typeof MESSAGING_ERROR_CODES)[number];

/** The API client's error kinds as codes: one spelling, on the wire and in the outbox. */
export type ApiErrorCode = `api.${ApiErrorKind}`;

/**
 * Every code a page may be answered with: closed, so a code no table knows is a compile error.
 * What each means is lib/messaging/errors.ts (`ERRORS`).
 */
export type MessageErrorCode = MessagingErrorCode | WorkerErrorCode | ApiErrorCode | LifecycleCode;

/**
 * The worker's own failure codes beside the API client's `api.<kind>` ones and a write's
 * lifecycle codes, which lib/background/errors.ts and the handlers give out.
 */
export const WORKER_ERROR_CODES = [
  /** A saved URL may not carry the key (InsecureServiceUrlError): nothing was sent. */
  'settings.insecure',
  /** No service saved yet, a fresh store install (ServiceNotConfiguredError): nothing was sent. */
  'settings.not-configured',
  /** The API URL changed between the page's Save and its key (SettingsChangedError): nothing stored. */
  'settings.changed',
  'mcp.refused',
  'mcp.unavailable',
  'discovery.failed',
  /** A backtest larger than the worker shows, or one that is not of the contract's shape. */
  'backtest.too-large',
  'backtest.malformed',
  /** The service answered with another playbook's backtest where this playbook's was asked for. */
  'backtest.other-playbook',
  /** The service answered with another playbook's performance where this playbook's was asked for. */
  'performance.other-playbook',
  /** A site the user typed is not a site pattern, or its access was not granted (or was denied). */
  'site.invalid',
  'site.permission-missing',
  'site.permission-denied',
  /** The playbook a page needs could not be read. */
  'playbook.unavailable',
] as const;
export type WorkerErrorCode = (typeof WORKER_ERROR_CODES)[number];

/** The answer to a request made before a service was saved. */
export const NOT_CONFIGURED_CODE = 'settings.not-configured' satisfies WorkerErrorCode;

export interface WireError {
  code: MessageErrorCode;
  message: string;
  /** Field path → message, for forms. */
  fields?: Record<string, string>;
  /** Extra, already-safe details (for example an API error's kind, operation or link). */
  details?: Record<string, unknown>;
}

export type Envelope<T> = { ok: true; value: T } | { ok: false; error: WireError };
