/**
 * The popup rows' short figure (the return since capture): after the popup's first page is read
 * from the network, the read model (lib/background/readModel.ts, the cache's one writer) asks
 * `getPlaybookPerformance` here for that page's playbooks, a few at a time, and writes the figures
 * into the popup's record, so the next popup paints them with its rows without waiting on the
 * network. Bounded: the first page only (MAX_RETURNS), one run at a time, figures kept only for
 * playbooks still on that page.
 */
import { playbookPerformance } from '@/lib/catalysts/reads';
import type { Playbook } from '@/lib/contract/service';

/** At most this many playbooks' figures are read per run (a first page is 20). */
export const MAX_RETURNS = 20;
const CONCURRENCY = 4;

/** The saved figures of the playbooks on `items` (none when the page is unknown). */
export function keptReturns(
  saved: Record<string, number> | undefined,
  items: readonly Pick<Playbook, 'id'>[] | undefined,
): { returns?: Record<string, number> } {
  if (!saved || !items) return saved ? { returns: saved } : {};
  const kept = Object.fromEntries(
    items.filter((item) => Number.isFinite(saved[item.id])).map((item) => [item.id, saved[item.id]]),
  );
  return Object.keys(kept).length ? { returns: kept } : {};
}

/** The figures of `ids` (the first MAX_RETURNS) that could be read; a playbook without tickers has none. */
export async function readReturns(all: readonly string[]): Promise<Record<string, number>> {
  const ids = all.slice(0, MAX_RETURNS);
  const figures: Record<string, number> = {};
  for (let at = 0; at < ids.length; at += CONCURRENCY) {
    const batch = ids.slice(at, at + CONCURRENCY);
    const answers = await Promise.allSettled(batch.map((id) => playbookPerformance(id)));
    answers.forEach((answer, i) => {
      if (answer.status === 'fulfilled' && answer.value.return !== null)
        figures[batch[i]] = answer.value.return;
    });
  }
  return figures;
}
