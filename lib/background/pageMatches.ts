import { browser } from 'wxt/browser';
import { VISIBILITIES } from '@/lib/contract/visibility';
import type { Playbook } from '@/lib/api/schemas';
import { createRereads, MAX_KEYS, type RereadOptions } from '@/lib/finance/rereads';
import { normalizeTicker } from '@/lib/finance/symbols';
import { plural } from '@/lib/i18n';
import { log } from '@/lib/log';
import { pageTickersAnswer, type HandlerRegistry, type PageMatch, type PageMatches } from '@/lib/messaging';
import { getSettings } from '@/lib/store/settings';
import { cachedFirstPages } from './readModel';
import { PAGE_TICKERS_QUERY } from '@/lib/messaging/pageTickers';

/**
 * "On this page" and the tab's badge: the tickers the tab's content script finds on its page,
 * matched against the playbooks of the worker's read cache (no network). Nothing is kept per tab
 * but the last report. Titles go only to the extension's own pages and the count only to the
 * toolbar badge of that tab: nothing the page can observe depends on what the user tracks.
 */
const MAX_MATCHES = 20;

/** Every playbook the read cache holds for the configured service, once each. */
async function cachedPlaybooks(): Promise<Playbook[]> {
  const { serviceUrl } = await getSettings();
  if (!serviceUrl) return [];
  const pages = await cachedFirstPages([
    { scope: 'mine' },
    ...VISIBILITIES.map((visibility) => ({ scope: 'mine' as const, visibility })),
  ]);
  const byId = new Map<string, Playbook>();
  for (const page of pages) for (const playbook of page?.items ?? []) byId.set(playbook.id, playbook);
  return [...byId.values()];
}

/** The cached playbooks that track any of `tickers` (compared as canonical symbols). */
export async function matchPlaybooks(tickers: readonly string[]): Promise<PageMatch[]> {
  const wanted = new Set(tickers.map((ticker) => normalizeTicker(ticker)).filter((t) => t !== null));
  if (wanted.size === 0) return [];
  const matches: PageMatch[] = [];
  for (const playbook of await cachedPlaybooks()) {
    const tracked = playbook.tickers
      .map((ticker) => normalizeTicker(ticker))
      .filter((t): t is string => t !== null && wanted.has(t));
    if (tracked.length > 0)
      matches.push({ id: playbook.id, title: playbook.title, tickers: [...new Set(tracked)] });
    if (matches.length >= MAX_MATCHES) break;
  }
  return matches;
}

/** A page busy longer than this (its thread hogged) is not waited for: no matches are shown. */
const PAGE_TICKERS_WAIT_MS = 1000;

/**
 * The tickers of the page in the tab, as its content script finds them now; none
 * when no content script of ours runs there (not a finance page), it answers out of bounds, or it
 * is too slow to answer.
 */
async function tickersOfTab(tabId: number): Promise<string[]> {
  // To the whole tab, no frameId: that reaches the page the tab shows (never a prerendered or
  // back/forward-cached one, and a prerendered page once shown, whatever its frame id), and only
  // a top frame's content script answers (shouldOffer).
  const answer = browser.tabs.sendMessage(tabId, PAGE_TICKERS_QUERY).then(
    (value: unknown) => pageTickersAnswer.safeParse(value).data?.tickers ?? [],
    () => [],
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<string[]>(
    (resolve) => (timer = setTimeout(() => resolve([]), PAGE_TICKERS_WAIT_MS)),
  );
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The tab's own badge: how many of the user's playbooks track its page, said in words in its
 * tooltip; none hands it back to the global badge, and the tooltip to the extension's name.
 */
async function showCount(tabId: number, count: number): Promise<void> {
  const action =
    browser.action ?? (browser as unknown as { browserAction?: typeof browser.action }).browserAction;
  if (!action) return;
  try {
    // `null` for a tab: it shows the global badge again (unread events, lib/events).
    await action.setBadgeText({ tabId, text: count > 0 ? String(count) : (null as unknown as string) });
    if (count > 0) await action.setBadgeBackgroundColor({ tabId, color: TRACKED_BADGE_COLOR });
    // An empty title shows the extension's name (Chromium and Firefox alike).
    await action.setTitle({ tabId, title: count > 0 ? plural('badge.tracked', count) : '' });
  } catch (error) {
    log.warn('page-matches.badge-failed', { error }); // The tab closed meanwhile.
  }
}

/** Not the events badge's colour: the user can tell "tracked here" from "unread events". */
const TRACKED_BADGE_COLOR = '#0b6b50';

/** `rereads`: how often a tab's reports are counted (tests shorten it). */
export function registerPageMatchHandlers(registry: HandlerRegistry, rereads?: RereadOptions): void {
  // The newest tickers each tab's page reported; counted at most once per interval per tab.
  // Bounded like the re-reads (MAX_KEYS), without a tabs.onRemoved listener waking the worker.
  const reported = new Map<number, readonly string[]>();
  const report = (tabId: number, tickers: readonly string[]) => {
    reported.delete(tabId);
    if (reported.size >= MAX_KEYS) reported.delete(reported.keys().next().value as number);
    reported.set(tabId, tickers);
  };
  const counts = createRereads<number, number>(
    async (tabId) => (await matchPlaybooks(reported.get(tabId) ?? [])).length,
    showCount,
    rereads,
  );
  // Answered at once and the same way whatever the user tracks: the count goes to the tab's
  // badge, where only the user sees it.
  registry.register('countPageMatches', ({ tickers }, sender) => {
    if (sender.kind === 'content-script') {
      report(sender.tabId, tickers);
      counts.request(sender.tabId);
    }
    return { scheduled: true as const };
  });
  registry.register('getPageMatches', async ({ tabId }): Promise<PageMatches> => {
    if (tabId === undefined) return { tickers: [], matches: [] };
    const tickers = await tickersOfTab(tabId);
    const matches = await matchPlaybooks(tickers);
    // The tab's badge follows what the user was just shown; the tab's content script reports
    // its page's next views from now on (countPageMatches).
    report(tabId, tickers);
    await showCount(tabId, matches.length);
    return { tickers, matches };
  });
}
