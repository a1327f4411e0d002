import { t } from '@/lib/i18n';
import { isApiError, type CachedRead, type Playbook } from '@/lib/api';
import { isWriteOperation, writeWords } from '@/lib/api/writeOperations';
import { connectMcp } from '@/lib/mcp/client';
import type { HandlerRegistry, PlaybookPage, ServiceOverview } from '@/lib/messaging';
import type { AppState, PopupOpened, Staleness } from '@/lib/messaging/protocol';
import { openWrites } from '@/lib/writes/owner';
import { log } from '@/lib/log';
import { keyFingerprint } from '@/lib/store/apiKey';
import { configuredSettings, getSettings, isServiceConfigured } from '@/lib/store/settings';
import { discover, lastDiscoveryReport, readCache, serviceClient } from '@/lib/api/service';
import { listCacheKey } from '@/lib/api/readCache';
import {
  dropPopupSnapshot,
  readPopupSnapshot,
  snapshotGeneration,
  snapshotBinding,
  writePopupSnapshot,
  type PopupDraft,
  type PopupSnapshot,
} from '@/lib/store/snapshot';
import { wireErrorOf } from './errors';
import { readAppState } from './state';

const PAGE_SIZE = 20;
const FALL_BACK_TO_CACHE = new Set([
  'network',
  'timeout',
  'server',
  'rate-limited',
  'deferred',
  'malformed-response',
]);

type PlaybookListing = Omit<PlaybookPage, 'source' | 'fetchedAt'>;

async function fetchPlaybookPage(
  operationId: 'listPlaybooks' | 'listPublicPlaybooks',
  query: Record<string, string | undefined>,
): Promise<PlaybookListing> {
  const client = await serviceClient();
  const page = await client.listPage<Playbook>(operationId, { query, pageSize: PAGE_SIZE });
  // "Load more" only where a cursor leads to a page not seen yet.
  const leadsOn = page.stopReason === undefined || page.stopReason === 'missing-cursor';
  return { items: page.items, nextCursor: leadsOn ? page.nextCursor : null, hasMore: page.hasMore };
}

function describeFailure(error: unknown): string {
  return isApiError(error) ? error.message : t('errors.worker.unreachable');
}

function fromCache(cached: CachedRead<PlaybookListing>, stale: Staleness | undefined): PlaybookPage {
  return { ...cached.value, source: 'cache', fetchedAt: cached.fetchedAt, ...(stale ? { stale } : {}) };
}

/**
 * A list page, first pages cached. The popup does stale-while-revalidate across two messages:
 * `preferCache` answers from the cache at once, then it asks again without it. Without it the
 * network answers and refreshes the cache; a service that cannot be reached falls back to the
 * cache, marked stale with the reason. (ReadCache.read() would revalidate inside one answer,
 * which a single message cannot deliver twice.)
 */
async function playbookPage(
  operationId: 'listPlaybooks' | 'listPublicPlaybooks',
  query: Record<string, string | undefined>,
  preferCache: boolean,
): Promise<PlaybookPage> {
  if (query.cursor) {
    return { ...(await fetchPlaybookPage(operationId, query)), source: 'network', fetchedAt: Date.now() };
  }
  const settings = await getSettings();
  const cacheKey = listCacheKey(settings.serviceUrl, operationId, query.visibility);
  const cached = await readCache.get<PlaybookListing>(cacheKey);
  if (preferCache && cached) return fromCache(cached, cached.stale ? { kind: 'refreshing' } : undefined);
  try {
    const fresh = await readCache.revalidate(cacheKey, () => fetchPlaybookPage(operationId, query));
    return { ...fresh.value, source: 'network', fetchedAt: fresh.fetchedAt };
  } catch (error) {
    const kind = isApiError(error) ? error.kind : 'network';
    // Only a service that cannot be reached or answers garbage is papered over; 401/403 must reach the user.
    if (cached && FALL_BACK_TO_CACHE.has(kind))
      return fromCache(cached, { kind: 'failed', reason: describeFailure(error) });
    throw error;
  }
}

async function overview(refresh: boolean, mayDiscover = true): Promise<ServiceOverview> {
  const result: ServiceOverview = { deprecations: [] };
  // Before the first-run setup there is no service to ask; its absence is not a failure.
  if (!isServiceConfigured(await getSettings())) return result;
  let report = await lastDiscoveryReport();
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

export function registerReadHandlers(registry: HandlerRegistry): void {
  registry.register('listPlaybooks', async ({ visibility, cursor, preferCache }) => {
    const readAt = snapshotGeneration();
    const page = await playbookPage('listPlaybooks', { visibility, cursor }, preferCache ?? false);
    // A fresh first page of the popup's default list is what its snapshot holds.
    if (page.source === 'network' && !visibility && !cursor) updateSnapshot({ page }, readAt);
    return page;
  });
  registry.register('listPublicPlaybooks', ({ cursor }) =>
    playbookPage('listPublicPlaybooks', { cursor }, false),
  );
  registry.register(
    'getPlaybook',
    async ({ id }) => (await (await serviceClient()).call('getPlaybook', { playbookId: id })).data,
  );
  registry.register('refreshPlaybooks', async ({ ids }) => {
    const items = await (await serviceClient()).batchGet(ids);
    return items.map((item) =>
      item.status === 200
        ? { id: item.id, playbook: item.playbook }
        : { id: item.id, error: { status: item.status, message: batchItemMessage(item.error) } },
    );
  });
  registry.register('openPopup', () => openPopup());
  registry.register('getOverview', async ({ refresh }) => {
    const readAt = snapshotGeneration();
    const fresh = await overview(refresh ?? false);
    updateSnapshot({ overview: fresh }, readAt);
    return fresh;
  });
  // Asked for explicitly: before the setup that is a refusal to say, not an empty success.
  registry.register('testConnection', async () => {
    await configuredSettings();
    return overview(true);
  });
  registry.register('runDiscovery', () => discover());
  registry.register('getDiscoveryReport', () => lastDiscoveryReport());
  registry.register('mcpListTools', async () => {
    const session = await connectMcp(await mcpEndpoint());
    try {
      const [tools, resources] = await Promise.all([session.listTools(), session.listResources()]);
      return { tools, resources, serverName: session.serverName, protocolVersion: session.protocolVersion };
    } finally {
      await session.close();
    }
  });
  registry.register('mcpCallTool', async ({ name, args }) => {
    const session = await connectMcp(await mcpEndpoint());
    try {
      const result = await session.callReadOnlyTool(name, args);
      return { content: result.content, isError: result.isError === true };
    } finally {
      await session.close();
    }
  });
}

function batchItemMessage(error: { detail?: unknown; title?: unknown; message?: unknown }): string {
  for (const text of [error.detail, error.message, error.title])
    if (typeof text === 'string' && text) return text;
  return t('errors.worker.notAvailable');
}

async function mcpEndpoint(): Promise<string> {
  const report = (await lastDiscoveryReport()) ?? (await discover());
  return report.documents.mcpEndpoint || new URL('/mcp', (await getSettings()).serviceUrl).toString();
}

async function currentBinding(serviceUrl: string): Promise<string> {
  return snapshotBinding(serviceUrl, await keyFingerprint());
}

/** The saved snapshot if it was read for `binding`; a record of another service or key is dropped. */
async function snapshotFor(binding: string): Promise<PopupSnapshot | undefined> {
  const saved = await readPopupSnapshot();
  if (saved && saved.binding !== binding) await dropPopupSnapshot();
  return saved?.binding === binding ? saved : undefined;
}

/**
 * The one writer of the popup's snapshot: `next` gets the record saved for `binding` (none, or
 * another binding's, counts as none) and returns what to save, or undefined to save nothing.
 * Nothing is saved if the snapshot was cleared since `readAt` (lib/store/snapshot.ts).
 */
async function saveSnapshot(
  binding: string,
  readAt: number,
  next: (saved: PopupSnapshot | undefined) => PopupSnapshot | undefined,
): Promise<void> {
  // Read before a clear (a Save, a new key): it neither saves nor drops what was saved since.
  if (readAt !== snapshotGeneration()) return;
  const snapshot = next(await snapshotFor(binding));
  if (snapshot) await writePopupSnapshot(snapshot, readAt);
}

/** Fresh data from another handler goes into the snapshot too, if one was saved for the same service and key. */
function updateSnapshot(change: Partial<Pick<PopupSnapshot, 'page' | 'overview'>>, readAt: number): void {
  (async () => {
    const binding = await currentBinding((await getSettings()).serviceUrl);
    await saveSnapshot(binding, readAt, (saved) => saved && { ...saved, ...change, savedAt: Date.now() });
  })().catch((error: unknown) => log.warn('popup.snapshot-update-failed', { error }));
}

async function popupDrafts(): Promise<PopupDraft[]> {
  // The open drafts as pages see them (lib/writes: without a window's token).
  return (await openWrites()).map((entry) => ({
    ...entry,
    label: isWriteOperation(entry.operationId) ? writeWords(entry.operationId).label : entry.operationId,
  }));
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

/** The revalidation under way, and the service and key it reads for: a popup opened meanwhile joins it. */
let revalidating: { binding: string; readAt: number; answer: Promise<PopupOpened> } | undefined;

/**
 * The popup's revalidation: state, first page, status and account read in parallel, saved as its
 * snapshot and answered. A snapshot read for another service or key is cleared first. One runs
 * at a time per binding: a popup opened while the one started by Save runs gets its answer.
 */
async function openPopup(): Promise<PopupOpened> {
  const readAt = snapshotGeneration();
  const state = await readAppState();
  const binding = await currentBinding(state.settings.serviceUrl);
  if (revalidating?.binding === binding && revalidating.readAt === readAt) return revalidating.answer;
  const answer = revalidate(state, binding, readAt);
  const mine = { binding, readAt, answer };
  revalidating = mine;
  const done = () => {
    if (revalidating === mine) revalidating = undefined;
  };
  answer.then(done, done);
  return answer;
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
  await snapshotFor(binding);
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
      ? playbookPage('listPlaybooks', {}, false).then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        )
      : undefined,
    overview(false, false),
    popupDrafts(),
  ]);
  if (!summary.discovery) discoverLater();
  const snapshot: PopupSnapshot = {
    binding,
    state,
    ...(page && 'value' in page ? { page: page.value } : {}),
    overview: summary,
    outbox,
    savedAt: Date.now(),
  };
  await saveSnapshot(binding, readAt, () => snapshot);
  if (page && 'error' in page) {
    const pageError = wireErrorOf(page.error) ?? {
      code: 'internal',
      message: t('errors.worker.playbooksUnreadable'),
    };
    return { ...snapshot, pageError };
  }
  return snapshot;
}
