import { browser } from 'wxt/browser';
import { z } from 'zod';
import { VISIBILITIES } from '@/lib/api/visibility';
import type { Playbook } from '@/lib/api/schemas';
import { normalizeTicker } from '@/lib/finance/symbols';
import type { HandlerRegistry, PageMatch, PageMatches } from '@/lib/messaging';
import { getSettings } from '@/lib/store/settings';
import { STORAGE_ITEMS } from '@/lib/store/inventory';
import { readCache } from '@/lib/api/service';
import { DRAFT_LIMITS } from '@/lib/finance/text';
import { PAGE_ADDRESS_QUERY } from '@/lib/messaging/pageAddress';

/**
 * "On this page": the tickers each tab's content script reported, kept in `storage.session` per
 * tab, matched against the playbooks of the worker's read cache (no network). Titles go only to
 * the extension's own pages; the content script learns a count.
 */
const KEY_PREFIX = STORAGE_ITEMS.pageTickers.keyPrefix;
const MAX_MATCHES = 20;

interface PageTickers {
  url: string;
  tickers: string[];
}

const memory = new Map<string, PageTickers>();

function sessionArea() {
  return (browser.storage as { session?: typeof browser.storage.local }).session;
}

/** The same page whatever its fragment: a hash change is not a navigation. */
function pageKey(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.href;
  } catch {
    return undefined;
  }
}

async function readPage(tabId: number): Promise<PageTickers | undefined> {
  const key = `${KEY_PREFIX}${tabId}`;
  const session = sessionArea();
  const stored: unknown = session ? (await session.get(key))[key] : memory.get(key);
  if (!stored || typeof stored !== 'object') return undefined;
  const { url, tickers } = stored as Partial<PageTickers>;
  if (typeof url !== 'string' || !Array.isArray(tickers)) return undefined;
  return { url, tickers: tickers.filter((t): t is string => typeof t === 'string') };
}

async function writePage(tabId: number, page: PageTickers): Promise<void> {
  const key = `${KEY_PREFIX}${tabId}`;
  const session = sessionArea();
  if (session) await session.set({ [key]: page });
  else memory.set(key, page);
}

/** For `tabs.onRemoved` (added in lib/background/index.ts): a closed tab's page is forgotten. */
export async function forgetPageTickers(tabId: number): Promise<void> {
  const key = `${KEY_PREFIX}${tabId}`;
  memory.delete(key);
  await sessionArea()?.remove(key);
}

/** Every playbook the read cache holds for the configured service, once each. */
async function cachedPlaybooks(): Promise<Playbook[]> {
  const { serviceUrl } = await getSettings();
  if (!serviceUrl) return [];
  const scopes = ['all', ...VISIBILITIES].map((scope) => `${serviceUrl}|listPlaybooks|${scope}`);
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

/** A page busy longer than this (its thread hogged) is not waited for: its matches are not shown. */
const PAGE_ADDRESS_WAIT_MS = 1000;
const pageAddress = z.strictObject({ url: z.string().max(DRAFT_LIMITS.url) });

/**
 * The address of the page in the tab's top frame, as its content script says; `gone` when no
 * content script of ours runs there any more (the tab left the finance page, or closed). Asked of
 * the content script because the worker may not read the URL of a tab without host access to it.
 */
async function pageAddressOf(tabId: number): Promise<{ url: string } | 'gone' | 'busy'> {
  const answer = browser.tabs.sendMessage(tabId, PAGE_ADDRESS_QUERY, { frameId: 0 }).then(
    (value: unknown) => {
      const parsed = pageAddress.safeParse(value);
      return parsed.success ? parsed.data : ('gone' as const);
    },
    () => 'gone' as const,
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'busy'>(
    (resolve) => (timer = setTimeout(() => resolve('busy'), PAGE_ADDRESS_WAIT_MS)),
  );
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The page in `tabId` now, if it is still the page whose tickers were reported. */
async function currentPage(tabId: number): Promise<PageTickers | undefined> {
  const stored = await readPage(tabId);
  if (!stored) return undefined;
  const address = await pageAddressOf(tabId);
  // Kept for the next ask: the page is there, only slow to say so.
  if (address === 'busy') return undefined;
  // The tab navigated away (or is gone): what it reported no longer describes it.
  if (address === 'gone' || pageKey(address.url) !== pageKey(stored.url)) {
    await forgetPageTickers(tabId);
    return undefined;
  }
  return stored;
}

export function registerPageMatchHandlers(registry: HandlerRegistry): void {
  registry.register('reportPageTickers', async ({ url, tickers }, sender) => {
    if (sender.kind !== 'content-script') return { matches: 0 };
    await writePage(sender.tabId, { url, tickers });
    return { matches: (await matchPlaybooks(tickers)).length };
  });
  registry.register('getPageMatches', async ({ tabId }): Promise<PageMatches> => {
    if (tabId === undefined) return { tickers: [], matches: [] };
    const page = await currentPage(tabId);
    if (!page) return { tickers: [], matches: [] };
    return { tickers: page.tickers, matches: await matchPlaybooks(page.tickers) };
  });
}
