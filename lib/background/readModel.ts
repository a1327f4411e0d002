import { t } from '@/lib/i18n';
import { isApiError, type Playbook } from '@/lib/api';
import { isWriteOperation, writeWords } from '@/lib/api/writeOperations';
import type { PlaybookPage, PlaybookRead, ServiceOverview } from '@/lib/messaging';
import type { Kept } from '@/lib/contract/wire';
import type { AppState, PopupOpened, Staleness } from '@/lib/messaging/protocol';
import { openWrites } from '@/lib/writes/owner';
import { log } from '@/lib/log';
import { apiCode, meaningOf } from '@/lib/messaging/errors';
import { keyFingerprint } from '@/lib/store/apiKey';
import { getSettings, isServiceConfigured } from '@/lib/store/settings';
import { discover, lastDiscoveryReport, serviceClient } from '@/lib/api/service';
import {
  dropPopupSnapshot,
  POPUP_VIEW,
  readCachedPlaybook,
  readCachedView,
  readKeptAnswer,
  readKey,
  readPopupSnapshot,
  snapshotBinding,
  snapshotGeneration,
  writeCachedPlaybook,
  writeCachedView,
  writeKeptAnswer,
  writePopupSnapshot,
  type PopupDraft,
  type PopupSnapshot,
  type ReadView,
} from '@/lib/store/snapshot';
import { wireErrorOf } from './errors';
import { readAppState } from './state';
import { keptReturns, readReturns } from './popupReturns';

/**
 * The worker's read model: the one writer of the read model's cache (lib/store/snapshot.ts), which
 * holds the popup's record and each list view's first page. Pages paint from that cache
 * themselves and ask here, one message per view (`openPopup`, `readView`), for the fresh answer.
 */

const PAGE_SIZE = 20;

type PlaybookListing = Omit<PlaybookPage, 'source' | 'fetchedAt'>;

async function fetchPlaybookPage(view: ReadView, cursor: string | undefined): Promise<PlaybookListing> {
  const client = await serviceClient();
  const operationId = view.scope === 'public' ? 'listPublicPlaybooks' : 'listPlaybooks';
  const query = view.scope === 'public' ? { cursor } : { visibility: view.visibility, cursor };
  const page = await client.listPage<Playbook>(operationId, { query, pageSize: PAGE_SIZE });
  // "Load more" only where a cursor leads to a page not seen yet.
  const leadsOn = page.stopReason === undefined || page.stopReason === 'missing-cursor';
  return { items: page.items, nextCursor: leadsOn ? page.nextCursor : null, hasMore: page.hasMore };
}

function describeFailure(error: unknown): string {
  return isApiError(error) ? error.message : t('errors.worker.unreachable');
}

async function currentBinding(serviceUrl?: string): Promise<string> {
  return snapshotBinding(serviceUrl ?? (await getSettings()).serviceUrl, await keyFingerprint());
}

/**
 * When each view's cached page was last confirmed by the service. A revalidation that brings the
 * same page back writes nothing, so the stored `fetchedAt` is when its content was first seen; a
 * worker that restarts forgets the later confirmations and says "older" rather than "newer".
 */
const confirmed = new Map<string, { binding: string; at: number }>();

/** A read under way, with the service and key it reads for and the clear count it started in. */
interface Running<T> {
  binding: string;
  readAt: number;
  task: Promise<T>;
}

/**
 * The read under `key` if one runs for the same service, key and clear count (a later caller
 * joins it), else `start()`'s, remembered until it settles.
 */
function joinOrStart<T>(
  running: Map<string, Running<T>>,
  key: string,
  binding: string,
  readAt: number,
  start: () => Promise<T>,
): Promise<T> {
  const under = running.get(key);
  if (under?.binding === binding && under.readAt === readAt) return under.task;
  const mine = { binding, readAt, task: start() };
  running.set(key, mine);
  const done = () => {
    if (running.get(key) === mine) running.delete(key);
  };
  mine.task.then(done, done);
  return mine.task;
}

/** The fresh read of each view under way: a read of the same view joins it. */
const inFlight = new Map<string, Running<PlaybookPage>>();

/**
 * A view of the playbooks: a later page (`cursor`) from the network, or the first page fresh from
 * the network and saved when it changed; a service that cannot be reached falls back to the
 * cached first page, marked stale with the typed reason. 401/403 must reach the user.
 */
export async function readView(view: ReadView, cursor?: string): Promise<PlaybookPage> {
  if (cursor) return { ...(await fetchPlaybookPage(view, cursor)), source: 'network', fetchedAt: Date.now() };
  const readAt = snapshotGeneration();
  const binding = await currentBinding();
  return joinOrStart(inFlight, readKey(view), binding, readAt, () => freshView(view, binding, readAt));
}

async function freshView(view: ReadView, binding: string, readAt: number): Promise<PlaybookPage> {
  const key = readKey(view);
  try {
    const page: PlaybookPage = {
      ...(await fetchPlaybookPage(view, undefined)),
      source: 'network',
      fetchedAt: Date.now(),
    };
    confirmed.set(key, { binding, at: page.fetchedAt });
    await writeCachedView(view, binding, page, readAt);
    return page;
  } catch (error) {
    const cached = cachedStandsIn(error) ? await readCachedView(view, binding) : undefined;
    if (!cached) throw error;
    const seen = confirmed.get(key);
    const fetchedAt = seen?.binding === binding ? Math.max(cached.fetchedAt, seen.at) : cached.fetchedAt;
    return { ...cached, fetchedAt, stale: staleAfter(error) };
  }
}

/** A read that failed so may show what the read model saved before (the one table decides). */
function cachedStandsIn(error: unknown): boolean {
  return meaningOf(apiCode(isApiError(error) ? error.kind : 'network')).cachedStandsIn;
}

function staleAfter(error: unknown): Staleness {
  const wire = wireErrorOf(error);
  return { kind: 'failed', reason: wire?.message ?? describeFailure(error), code: wire?.code };
}

/**
 * One playbook for the side panel's detail: fresh from the service and saved, or, when the service
 * cannot be reached, the copy saved when it was last opened or listed, marked cached and stale.
 */
export async function readPlaybook(id: string): Promise<PlaybookRead> {
  const readAt = snapshotGeneration();
  const binding = await currentBinding();
  try {
    const client = await serviceClient();
    const fresh = {
      playbook: (await client.call('getPlaybook', { playbookId: id })).data,
      fetchedAt: Date.now(),
    };
    await writeCachedPlaybook(binding, fresh, readAt).catch((error: unknown) =>
      log.warn('playbook.cache-failed', { error }),
    );
    return { ...fresh, source: 'network' };
  } catch (error) {
    const cached = cachedStandsIn(error) ? await readCachedPlaybook(id, binding) : undefined;
    if (!cached) throw error;
    return { ...cached, source: 'cache', stale: staleAfter(error) };
  }
}

/**
 * One of the detail's reads (catalysts, performance, backtests) kept by the read model: a fresh
 * answer is saved under `key`; when the service cannot be reached (the one table decides) the last
 * saved answer stands in, marked `saved` with when and why. A read may also answer its failure as
 * data: `failedWith` then gives its code, and the answer is not saved.
 */
export async function keptRead<T extends object>(
  key: string,
  read: () => Promise<T>,
  failedWith: (answer: T) => string | undefined = () => undefined,
): Promise<Kept<T>> {
  const readAt = snapshotGeneration();
  const binding = await currentBinding();
  let answer: T;
  let code: string | undefined;
  try {
    answer = await read();
    code = failedWith(answer);
  } catch (error) {
    const kept = cachedStandsIn(error) ? await readKeptAnswer(key, binding) : undefined;
    if (!kept) throw error;
    return { ...(kept.value as T), saved: { savedAt: kept.savedAt, code: wireErrorOf(error)?.code } };
  }
  if (code === undefined) {
    await writeKeptAnswer(binding, { key, value: answer, savedAt: Date.now() }, readAt).catch(
      (error: unknown) => log.warn('detail.keep-failed', { error }),
    );
    return answer;
  }
  const kept = meaningOf(code).cachedStandsIn ? await readKeptAnswer(key, binding) : undefined;
  return kept ? { ...(kept.value as T), saved: { savedAt: kept.savedAt, code } } : answer;
}

/** The cached first pages of `views` for the service and key saved now (none where not cached). */
export async function cachedFirstPages(views: ReadView[]): Promise<Array<PlaybookPage | undefined>> {
  const binding = await currentBinding();
  return Promise.all(views.map((view) => readCachedView(view, binding)));
}

/** Status, account, discovery health, deprecations and rate limits; before the setup, nothing. */
export async function readOverview(refresh: boolean, mayDiscover = true): Promise<ServiceOverview> {
  const result: ServiceOverview = { deprecations: [] };
  // Before the first-run setup there is no service to ask; its absence is not a failure.
  if (!isServiceConfigured(await getSettings())) return result;
  let report = await lastDiscoveryReport({ openapi: false });
  if (mayDiscover && (!report || refresh)) report = await discover().catch(() => report);
  if (report) {
    const failed = report.steps.filter((step) => step.status === 'failed' || step.status === 'invalid');
    result.discovery = {
      fetchedAt: report.finishedAt,
      documentsOk: report.steps.length - failed.length,
      documentsFailed: failed.length,
      skillsVerified: report.documents.skills.filter((skill) => skill.verification === 'verified').length,
      skillsFailed: report.documents.skills.filter((skill) => skill.verification !== 'verified').length,
      stale: report.steps.some((step) => step.status === 'stale'),
    };
  }
  let client;
  try {
    client = await serviceClient();
  } catch (error) {
    result.statusError = isApiError(error)
      ? error.toJSON()
      : { name: 'ApiError', kind: 'network', operationId: 'getStatus', message: describeFailure(error) };
    return result;
  }
  const [status, account] = await Promise.allSettled([client.call('getStatus'), client.call('getAccount')]);
  if (status.status === 'fulfilled') result.status = status.value.data;
  else if (isApiError(status.reason)) result.statusError = status.reason.toJSON();
  if (account.status === 'fulfilled') result.account = account.value.data;
  else if (isApiError(account.reason)) result.accountError = account.reason.toJSON();
  result.deprecations = client.deprecations();
  result.rateLimit = client.rateLimitState();
  return result;
}

/** The overview asked for by the popup's status region: it refreshes the popup's record too. */
export async function refreshOverview(refresh: boolean): Promise<ServiceOverview> {
  const readAt = snapshotGeneration();
  const fresh = await readOverview(refresh);
  (async () => {
    const binding = await currentBinding();
    const saved = await snapshotFor(binding);
    if (!saved) return;
    const { page: _page, ...record } = saved;
    await writePopupSnapshot({ ...record, overview: fresh, savedAt: Date.now() }, readAt);
  })().catch((error: unknown) => log.warn('popup.snapshot-update-failed', { error }));
  return fresh;
}

/** The saved snapshot if it was read for `binding`; records of another service or key are dropped. */
async function snapshotFor(binding: string): Promise<PopupSnapshot | undefined> {
  const saved = await readPopupSnapshot();
  if (saved && saved.binding !== binding) await dropPopupSnapshot();
  return saved?.binding === binding ? saved : undefined;
}

async function popupDrafts(): Promise<PopupDraft[]> {
  // The open drafts as pages see them (lib/writes: without a window's token).
  return (await openWrites()).map((entry) => ({
    ...entry,
    label: isWriteOperation(entry.operationId) ? writeWords(entry.operationId).label : entry.operationId,
  }));
}

let readingReturns: Promise<void> | undefined;
/** Figures are daily closes: read at most once per this interval for one service and key. */
const RETURNS_EVERY_MS = 10 * 60_000;
let returnsRead: { binding: string; at: number } | undefined;

/**
 * The rows' figures read in the background after a fresh first page, one run at a time, and saved
 * into the popup's record if it is still this binding's and some figure is known.
 */
function refreshReturnsLater(ids: readonly string[], binding: string, readAt: number): void {
  if (readingReturns || ids.length === 0) return;
  if (returnsRead?.binding === binding && Date.now() - returnsRead.at < RETURNS_EVERY_MS) return;
  returnsRead = { binding, at: Date.now() };
  readingReturns = (async () => {
    const figures = await readReturns(ids);
    const saved = await readPopupSnapshot();
    if (saved?.binding !== binding) return;
    const { page: _page, returns: _old, ...record } = saved;
    const returns = Object.keys(figures).length ? { returns: figures } : {};
    await writePopupSnapshot({ ...record, ...returns }, readAt);
  })()
    .catch((error: unknown) => log.warn('popup.returns-failed', { error }))
    .finally(() => {
      readingReturns = undefined;
    });
}

/** A discovery run is many requests: it waits until the popup has painted from what it was given. */
const DISCOVERY_DEFER_MS = 1500;
let deferredDiscovery: ReturnType<typeof setTimeout> | undefined;

function discoverLater(): void {
  if (deferredDiscovery !== undefined) return;
  deferredDiscovery = setTimeout(() => {
    deferredDiscovery = undefined;
    discover().catch((error: unknown) => log.warn('discovery.deferred-failed', { error }));
  }, DISCOVERY_DEFER_MS);
}

/** The popup's revalidation under way: a popup opened meanwhile joins it. */
const revalidating = new Map<'popup', Running<PopupOpened>>();

/**
 * The popup's revalidation: state, first page, status and account read in parallel, saved as its
 * snapshot (where changed) and answered. Records read for another service or key are cleared
 * first. One runs at a time per binding: a popup opened while the one started by Save runs gets its answer.
 */
export async function openPopup(): Promise<PopupOpened> {
  const readAt = snapshotGeneration();
  const state = await readAppState();
  const binding = await currentBinding(state.settings.serviceUrl);
  return joinOrStart(revalidating, 'popup', binding, readAt, () => revalidate(state, binding, readAt));
}

/**
 * After Save: the snapshot for the new service or key is read at once, so the popup opened next
 * paints the list from it (or joins this read) instead of starting from nothing.
 */
export function warmPopupSnapshot(): void {
  openPopup().catch((error: unknown) => log.warn('popup.warm-failed', { error }));
}

async function revalidate(state: AppState, binding: string, readAt: number): Promise<PopupOpened> {
  // Another service's or key's record goes before anything is read, not when this read lands.
  const saved = await snapshotFor(binding);
  // No service saved yet: nothing to read, nothing sent; the popup points to the setup.
  if (state.serviceSetup)
    return {
      binding,
      state,
      overview: { deprecations: [] },
      outbox: await popupDrafts(),
      savedAt: Date.now(),
    };
  const [page, summary, outbox] = await Promise.all([
    state.key.set
      ? readView(POPUP_VIEW).then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        )
      : undefined,
    readOverview(false, false),
    popupDrafts(),
  ]);
  if (!summary.discovery) discoverLater();
  const snapshot: PopupSnapshot = {
    binding,
    state,
    // A cached page (the service unreachable) is answered as such, and not saved again.
    ...(page && 'value' in page ? { page: page.value } : {}),
    overview: summary,
    outbox,
    ...keptReturns(saved?.returns, page && 'value' in page ? page.value.items : undefined),
    savedAt: Date.now(),
  };
  const { page: _page, ...record } = snapshot;
  await writePopupSnapshot(record, readAt);
  if (page && 'value' in page && page.value.source === 'network')
    refreshReturnsLater(
      page.value.items.map((item) => item.id),
      binding,
      readAt,
    );
  if (page && 'error' in page) {
    const pageError = wireErrorOf(page.error) ?? {
      code: 'internal',
      message: t('errors.worker.playbooksUnreadable'),
    };
    return { ...snapshot, pageError };
  }
  return snapshot;
}
