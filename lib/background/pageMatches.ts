import { browser } from 'wxt/browser';
import { VISIBILITIES } from '@/lib/api/visibility';
import type { Playbook } from '@/lib/api/schemas';
import { normalizeTicker } from '@/lib/finance/symbols';
import { pageTickersAnswer, type HandlerRegistry, type PageMatch, type PageMatches } from '@/lib/messaging';
import { PAGE_TICKERS_QUERY } from '@/lib/messaging/pageTickers';
import { getSettings } from '@/lib/store/settings';
import { readCache } from '@/lib/api/service';
import { listCacheKey } from '@/lib/api/readCache';

/**
 * "On this page": the tickers the tab's content script finds on its page when the popup or side
 * panel asks, matched against the playbooks of the worker's read cache (no network). Nothing is
 * kept per tab. Titles go only to the extension's own pages; the content script learns a count.
 */
const MAX_MATCHES = 20;

/** Every playbook the read cache holds for the configured service, once each. */
async function cachedPlaybooks(): Promise<Playbook[]> {
  const { serviceUrl } = await getSettings();
  if (!serviceUrl) return [];
  const scopes = ['all', ...VISIBILITIES].map((scope) => listCacheKey(serviceUrl, 'listPlaybooks', scope));
  const pages = await Promise.all(scopes.map((key) => readCache.get<{ items?: Playbook[] }>(key)));
  const byId = new Map<string, Playbook>();
  for (const page of pages) for (const playbook of page?.value.items ?? []) byId.set(playbook.id, playbook);
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
  // back/forward-cached one), and only a top frame's content script answers (shouldOffer).
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

export function registerPageMatchHandlers(registry: HandlerRegistry): void {
  registry.register('countPageMatches', async ({ tickers }) => ({
    matches: (await matchPlaybooks(tickers)).length,
  }));
  registry.register('getPageMatches', async ({ tabId }): Promise<PageMatches> => {
    if (tabId === undefined) return { tickers: [], matches: [] };
    const tickers = await tickersOfTab(tabId);
    return { tickers, matches: await matchPlaybooks(tickers) };
  });
}
