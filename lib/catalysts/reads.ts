/**
 * The side panel's catalyst and performance reads (CONTRACT.md section 2.1). Operations are found by
 * operationId through the one client, whose known response schemas (lib/contract/catalyst.ts)
 * check every item; the list follows cursors up to a bound and is answered soonest first. A
 * performance answer must be the asked playbook's, or it is refused, never shown under this one.
 */
import { serviceClient } from '@/lib/api/service';
import { t } from '@/lib/i18n';
import { getSettings } from '@/lib/store/settings';
import type { Catalyst, Performance } from '@/lib/contract/catalyst';
import { HandledError } from '@/lib/contract/handledError';
import type { CatalystList } from '@/lib/contract/wire';

const PAGE_SIZE = 50;
const MAX_PAGES = 4;
/** The most catalysts a playbook's list holds; beyond it the list says it is incomplete. */
export const MAX_CATALYSTS = 200;

/** When a catalyst happens, as an instant: an all-day one at the start of its day (UTC). */
export function catalystInstant(catalyst: Pick<Catalyst, 'at' | 'all_day'>): number {
  const ms = Date.parse(catalyst.all_day ? `${catalyst.at}T00:00:00Z` : catalyst.at);
  return Number.isFinite(ms) ? ms : Number.POSITIVE_INFINITY;
}

/**
 * Soonest first, at most MAX_CATALYSTS, each id once (a service may repeat one across pages);
 * ties keep the service's order.
 */
export function soonestFirst(items: readonly Catalyst[]): { items: Catalyst[]; complete: boolean } {
  const seen = new Set<string>();
  const unique = items.filter((item) => !seen.has(item.id) && seen.add(item.id));
  const sorted = unique
    .map((item, index) => ({ item, index, at: catalystInstant(item) }))
    .sort((a, b) => a.at - b.at || a.index - b.index)
    .map((entry) => entry.item);
  return { items: sorted.slice(0, MAX_CATALYSTS), complete: sorted.length <= MAX_CATALYSTS };
}

/** The API origin the calendar's UIDs are named after: an origin only, never user-info or a path. */
async function apiOrigin(): Promise<string> {
  const { apiUrl } = await getSettings();
  return URL.canParse(apiUrl) ? new URL(apiUrl).origin : '';
}

/** The upcoming catalysts of a playbook's tickers, following cursors up to MAX_PAGES pages. */
export async function listPlaybookCatalysts(playbookId: string): Promise<CatalystList> {
  const client = await serviceClient();
  const collected: Catalyst[] = [];
  let complete = true;
  for await (const page of client.paginate<Catalyst>('listCatalysts', {
    query: { playbook_id: playbookId },
    pageSize: PAGE_SIZE,
    maxPages: MAX_PAGES,
  })) {
    collected.push(...page.items);
    complete = page.complete;
    if (collected.length > MAX_CATALYSTS) break;
  }
  const ordered = soonestFirst(collected);
  return { items: ordered.items, complete: complete && ordered.complete, apiOrigin: await apiOrigin() };
}

/** How far ahead "On this page" looks for a tracked ticker's catalyst. */
export const WEEK_DAYS = 7;
/** The most tickers one read asks about (the contract's bound of `tickers`). */
export const MAX_CATALYST_TICKERS = 50;

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The catalysts of `tickers` from today to a week ahead (UTC days): one bounded page, soonest first. */
export async function catalystsWithinWeek(tickers: readonly string[], now = Date.now()): Promise<Catalyst[]> {
  if (tickers.length === 0) return [];
  const client = await serviceClient();
  const page = await client.listPage<Catalyst>('listCatalysts', {
    query: {
      tickers: tickers.slice(0, MAX_CATALYST_TICKERS).join(','),
      from: utcDay(now),
      to: utcDay(now + WEEK_DAYS * 86_400_000),
    },
    pageSize: PAGE_SIZE,
  });
  return soonestFirst(page.items).items;
}

export const PERFORMANCE_OTHER_PLAYBOOK = 'performance.other-playbook';

export async function playbookPerformance(playbookId: string): Promise<Performance> {
  const client = await serviceClient();
  const { data } = await client.call('getPlaybookPerformance', { playbookId });
  if (data.playbook_id !== playbookId)
    throw new HandledError({ code: PERFORMANCE_OTHER_PLAYBOOK, message: t('sinceCaptured.otherPlaybook') });
  return data;
}
