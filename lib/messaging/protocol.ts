import { z } from 'zod';
import { t } from '@/lib/i18n';
import { MAX_CURSOR_LENGTH, REMINDER_LEADS, type KeyState } from '@/lib/contract/wire';
import { serviceUrlProblem } from '@/lib/contract/origins';
import { urlProblemText } from '@/lib/i18n/problems';
import type { Playbook } from '@/lib/contract/service';
import { VISIBILITIES } from '@/lib/contract/visibility';
import type { DiscoveryReport } from '@/lib/discovery';
import type { McpResourceSummary, McpToolSummary } from '@/lib/mcp/client';
import type { WriteDraft } from '@/lib/contract/outbox';
import { WRITE_OPERATIONS, type WriteOperation } from '@/lib/contract/writes';
import type { EventFeed } from '@/lib/events/feed';
import type { Backtest } from '@/lib/contract/backtest';
import type { Catalyst, Performance } from '@/lib/contract/catalyst';
import { MAX_CAPTURE_SELECTION } from '@/lib/finance/captureGlobal';
import { TICKER_PATTERN } from '@/lib/finance/symbols';
import { DRAFT_LIMITS } from '@/lib/finance/text';

import type { SenderKind } from './sender';
import type {
  PendingWrite,
  PopupOpened,
  PageMatches,
  PlaybookPage,
  PlaybookRead,
  BacktestPage,
  CatalystList,
  LatestBacktest,
  ServiceOverview,
  AppState,
  OutboxEntryView,
  Kept,
} from '@/lib/contract/wire';

// The shapes these messages carry live in lib/contract/wire.ts; every name stays importable from here.
export type {
  OutboxEntryView,
  AppState,
  BacktestPage,
  CatalystList,
  Envelope,
  Freshness,
  Kept,
  SavedCopy,
  HostAccessState,
  InsecureSettingsState,
  LatestBacktest,
  MessageErrorCode,
  PageMatch,
  PageMatches,
  PendingWrite,
  PlaybookPage,
  PlaybookRead,
  PopupDraft,
  PopupOpened,
  PopupSnapshot,
  ServiceOverview,
  SettingsState,
  Staleness,
  WireError,
  WorkerErrorCode,
} from '@/lib/contract/wire';
export { NOT_CONFIGURED_CODE, WORKER_ERROR_CODES } from '@/lib/contract/wire';

/**
 * The one message contract between the extension's pages, its content script and the service
 * worker. Each message names its request schema (zod, strict), who may send it, and (as a type
 * parameter) what it answers. Nothing else may be sent; anything else is dropped with a typed error.
 */
export interface MessageSpec<Req extends z.ZodType, Res> {
  request: Req;
  senders: readonly Exclude<SenderKind, 'foreign'>[];
  /** Content scripts in sub-frames (ads, embeds) may not send it. */
  topFrameOnly?: boolean;
  /** Phantom: carries the response type. */
  readonly response?: Res;
}

function message<Res>() {
  return <Req extends z.ZodType>(spec: Omit<MessageSpec<Req, Res>, 'response'>): MessageSpec<Req, Res> =>
    spec;
}

const EXTENSION_PAGES = ['extension-page'] as const;
/** Service and API URLs: the settings module's one rule (https unless loopback), checked in the worker. */
const serviceUrl = z
  .string()
  .trim()
  .max(2048)
  .superRefine((value, ctx) => {
    const problem = serviceUrlProblem(value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: urlProblemText(problem) });
  });

export type { KeyState };

const visibility = z.enum(VISIBILITIES);
const opaqueCursor = z.string().min(1).max(MAX_CURSOR_LENGTH);
const playbookId = z.string().min(1).max(200);

export const writeOperation = z.enum(WRITE_OPERATIONS);
export type { WriteDraft, WriteOperation };

/** The tickers a page names, as its content script says: untrusted, bounded and checked here. */
const pageTickerList = z.array(z.string().regex(TICKER_PATTERN)).max(DRAFT_LIMITS.tickers);

/** The content script's answer to the worker's one query (PAGE_TICKERS_QUERY, pageTickers.ts). */
export const pageTickersAnswer = z.strictObject({ tickers: pageTickerList });

/** A local time of day as minutes since midnight (quiet hours). */
const minuteOfDay = z.number().int().min(0).max(1439);

export const messages = {
  getState: message<AppState>()({
    request: z.strictObject({}),
    senders: EXTENSION_PAGES,
  }),
  saveSettings: message<AppState>()({
    request: z.strictObject({
      serviceUrl: serviceUrl,
      apiUrl: serviceUrl,
      pollMinutes: z.number().int().min(1).max(60).optional(),
      // Catalyst reminders: the lead and quiet hours (minutes since local midnight).
      reminderLead: z.enum(REMINDER_LEADS).optional(),
      quietHours: z.strictObject({ start: minuteOfDay, end: minuteOfDay }).nullable().optional(),
    }),
    senders: EXTENSION_PAGES,
  }),
  saveApiKey: message<KeyState>()({
    request: z.strictObject({
      key: z
        .string()
        .trim()
        .min(8)
        .max(512)
        .regex(/^[\x21-\x7e]+$/, { error: () => t('errors.field.printableAscii') }),
      /** The API URL the page saved and showed: the key is bound to it, or not stored at all. */
      apiUrl: z.string().max(2048).optional(),
    }),
    senders: EXTENSION_PAGES,
  }),
  removeApiKey: message<KeyState>()({
    request: z.strictObject({}),
    senders: EXTENSION_PAGES,
  }),
  getDraft: message<OutboxEntryView>()({
    request: z.strictObject({ id: z.uuid() }),
    senders: EXTENSION_PAGES,
  }),
  /** The confirm window's view of a pending write, with the account it goes to. */
  getPendingWrite: message<PendingWrite>()({
    request: z.strictObject({ id: z.uuid() }),
    senders: EXTENSION_PAGES,
  }),
  listOutbox: message<OutboxEntryView[]>()({
    request: z.strictObject({}),
    senders: EXTENSION_PAGES,
  }),
  /** Side panel actions: queue a write and open the confirm window. Nothing is sent yet. */
  requestWrite: message<{ draftId: string }>()({
    request: z.strictObject({
      operationId: writeOperation,
      /** The playbook it acts on; the worker binds it to whatever the document names the path parameter. */
      playbookId: playbookId.optional(),
      body: z.record(z.string().max(64), z.unknown()).optional(),
      ifMatch: z.string().max(200).optional(),
    }),
    senders: EXTENSION_PAGES,
  }),
  /**
   * The user pressed Confirm (or Retry) in an extension page. The background resolves the
   * operation again, binds it with the body, key and Idempotency-Key into the outbox entry, claims
   * the entry and sends exactly that.
   */
  confirmWrite: message<OutboxEntryView>()({
    request: z.strictObject({
      id: z.uuid(),
      body: z.record(z.string().max(64), z.unknown()).optional(),
      typed: z.string().max(300).optional(),
      /** The token of the window that shows the draft (getPendingWrite): one Confirm per showing. */
      token: z.uuid().optional(),
    }),
    senders: EXTENSION_PAGES,
  }),
  /**
   * Retry from any page: resends the confirmed bytes under the same key when the failure allows
   * it and nothing changed; otherwise opens (or focuses) the draft's window. Never sends anything else.
   */
  retryWrite: message<{ outcome: 'sent'; entry: OutboxEntryView } | { outcome: 'review' }>()({
    request: z.strictObject({ id: z.uuid() }),
    senders: EXTENSION_PAGES,
  }),
  /** Review from any page: opens the draft's one confirm window, or focuses it. */
  reviewWrite: message<{ opened: true }>()({
    request: z.strictObject({ id: z.uuid() }),
    senders: EXTENSION_PAGES,
  }),
  runDiscovery: message<DiscoveryReport>()({
    request: z.strictObject({}),
    senders: EXTENSION_PAGES,
  }),
  getDiscoveryReport: message<DiscoveryReport | null>()({
    request: z.strictObject({}),
    senders: EXTENSION_PAGES,
  }),
  /** Options page "Test connection": discovery, then getAccount. */
  testConnection: message<ServiceOverview>()({
    request: z.strictObject({}),
    senders: EXTENSION_PAGES,
  }),
  /**
   * The popup's one message at open: fresh state, first page, status, account and drafts, which the
   * worker's read model also saves as the popup's snapshot (lib/store/snapshot.ts) where they
   * changed. Never runs discovery.
   */
  openPopup: message<PopupOpened>()({
    request: z.strictObject({}),
    senders: EXTENSION_PAGES,
  }),
  /** Popup status region: /status, the account, discovery health, deprecations, rate limits. */
  getOverview: message<ServiceOverview>()({
    request: z.strictObject({ refresh: z.boolean().optional() }),
    senders: EXTENSION_PAGES,
  }),
  /**
   * One view of the playbooks from the worker's read model (lib/background/readModel.ts): a first
   * page fresh from the service (saved in the read model's cache the popup paints from), or the
   * cached one marked `stale` when the service cannot be reached; with `cursor`, the next page.
   * The popup's scope, filter and "Load more" all ask this, one message each.
   */
  readView: message<PlaybookPage>()({
    request: z.strictObject({
      scope: z.enum(['mine', 'public']),
      visibility: visibility.optional(),
      cursor: opaqueCursor.optional(),
    }),
    senders: EXTENSION_PAGES,
  }),
  /** The side panel's list: the view "mine" of `readView`. */
  listPlaybooks: message<PlaybookPage>()({
    request: z.strictObject({ visibility: visibility.optional(), cursor: opaqueCursor.optional() }),
    senders: EXTENSION_PAGES,
  }),
  getPlaybook: message<Playbook>()({
    request: z.strictObject({ id: playbookId }),
    senders: EXTENSION_PAGES,
  }),
  /** The side panel's detail: the read model's read of one playbook, its saved copy standing in offline. */
  readPlaybook: message<PlaybookRead>()({
    request: z.strictObject({ id: playbookId }),
    senders: EXTENSION_PAGES,
  }),
  /** Refresh several playbooks with one batch read; per-item status. */
  refreshPlaybooks: message<
    Array<{ id: string; playbook?: Playbook; error?: { status: number | string; message: string } }>
  >()({
    request: z.strictObject({ ids: z.array(playbookId).min(1).max(200) }),
    senders: EXTENSION_PAGES,
  }),
  /** One page of a playbook's backtests, newest first, without equity (lib/background/backtests.ts). */
  listBacktests: message<Kept<BacktestPage>>()({
    request: z.strictObject({ playbookId, cursor: opaqueCursor.optional() }),
    senders: EXTENSION_PAGES,
  }),
  /** One backtest with its equity series when completed. */
  getBacktest: message<Backtest>()({
    request: z.strictObject({ id: playbookId }),
    senders: EXTENSION_PAGES,
  }),
  /** Each playbook's newest completed backtest with its equity, for the detail and the comparison. */
  latestBacktests: message<Array<Kept<LatestBacktest>>>()({
    request: z.strictObject({ playbookIds: z.array(playbookId).min(1).max(4) }),
    senders: EXTENSION_PAGES,
  }),
  listSites: message<{ extra: string[] }>()({
    request: z.strictObject({}),
    senders: EXTENSION_PAGES,
  }),
  /** Sent after the options page obtained the host permission for the site (a user gesture). */
  addSite: message<{ extra: string[] }>()({
    request: z.strictObject({ site: z.string().trim().min(1).max(300) }),
    senders: EXTENSION_PAGES,
  }),
  removeSite: message<{ extra: string[] }>()({
    request: z.strictObject({ site: z.string().min(1).max(300) }),
    senders: EXTENSION_PAGES,
  }),
  mcpListTools: message<{
    tools: McpToolSummary[];
    resources: McpResourceSummary[];
    serverName?: string;
    protocolVersion?: string;
  }>()({
    request: z.strictObject({}),
    senders: EXTENSION_PAGES,
  }),
  mcpCallTool: message<{ content: unknown; isError: boolean }>()({
    request: z.strictObject({
      name: z.string().min(1).max(128),
      args: z.record(z.string().max(128), z.unknown()).optional(),
    }),
    senders: EXTENSION_PAGES,
  }),
  discardDraft: message<{ discarded: true }>()({
    request: z.strictObject({ id: z.uuid() }),
    senders: EXTENSION_PAGES,
  }),
  /**
   * The content script's "Turn this into a playbook": an untrusted draft the background checks.
   * With `capture`, the worker first reads the article (Readability, injected on this click) and
   * keeps `draft` only when that fails.
   */
  submitPageDraft: message<{ draftId: string }>()({
    request: z.strictObject({
      draft: z.unknown(),
      capture: z.strictObject({ selection: z.string().max(MAX_CAPTURE_SELECTION) }).optional(),
    }),
    senders: ['content-script'],
    topFrameOnly: true,
  }),
  /**
   * The content script's report of the tickers its page names now (loaded, or a single-page app
   * moved on). The worker counts the playbooks that track them, at most once per interval per
   * tab, and puts the count on the tab's toolbar badge: the answer is the same whatever the user
   * tracks, so the page learns nothing.
   */
  countPageMatches: message<{ scheduled: true }>()({
    request: z.strictObject({ tickers: pageTickerList }),
    senders: ['content-script'],
    topFrameOnly: true,
  }),
  /** Popup and side panel: which of the user's playbooks track the tickers of the tab's page. */
  getPageMatches: message<PageMatches>()({
    request: z.strictObject({ tabId: z.number().int().min(0).optional() }),
    senders: EXTENSION_PAGES,
  }),
  // --- Catalysts and performance since capture (side panel detail; lib/background/catalysts.ts) ---
  /** A playbook's upcoming catalysts, soonest first, cursors followed up to a bound. */
  listPlaybookCatalysts: message<Kept<CatalystList>>()({
    request: z.strictObject({ playbookId }),
    senders: EXTENSION_PAGES,
  }),
  /** How a playbook has done since its idea was captured. */
  getPlaybookPerformance: message<Kept<Performance>>()({
    request: z.strictObject({ playbookId }),
    senders: EXTENSION_PAGES,
  }),
  /** "On this page" (side panel only): the catalysts within a week of the page's tracked tickers. */
  catalystsWithinWeek: message<Catalyst[]>()({
    request: z.strictObject({ tickers: z.array(z.string().regex(TICKER_PATTERN)).min(1).max(50) }),
    senders: EXTENSION_PAGES,
  }),
  // --- end Catalysts ---
  // --- Events (side panel Events tab; lib/events) ---
  /** The recent events with how each arrived, the unread count and whether a stream is live. */
  getEventFeed: message<EventFeed & { streaming: boolean }>()({
    request: z.strictObject({}),
    senders: EXTENSION_PAGES,
  }),
  /** The Events tab was viewed: the badge count goes back to zero. */
  clearEventBadge: message<{ unread: 0 }>()({
    request: z.strictObject({}),
    senders: EXTENSION_PAGES,
  }),
  /** Poll `listEvents` from the stored cursor now (what the alarm does). */
  pollEventsNow: message<{ received: number }>()({
    request: z.strictObject({}),
    senders: EXTENSION_PAGES,
  }),
  // --- end Events ---
} as const;

export type MessageMap = typeof messages;
export type MessageName = keyof MessageMap;
export type RequestOf<N extends MessageName> = z.input<MessageMap[N]['request']>;
export type ParsedRequestOf<N extends MessageName> = z.output<MessageMap[N]['request']>;
export type ResponseOf<N extends MessageName> = Exclude<MessageMap[N]['response'], undefined>;

export const envelopeSchema = z.strictObject({
  type: z.string().min(1).max(64),
  payload: z.unknown(),
});
