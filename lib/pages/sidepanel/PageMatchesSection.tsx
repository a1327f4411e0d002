import { useEffect, useState } from 'preact/hooks';
import { PageMatchList } from '@/components/PageMatchList';
import type { Catalyst } from '@/lib/contract/catalyst';
import { sendMessage } from '@/lib/messaging/client';
import { loadPageMatches, watchActivePage } from '@/lib/pages/pageMatches';
import { useAsync } from '@/lib/pages/useAsync';
import { WeekCatalysts } from './WeekCatalysts';

/** The page's tickers that some playbook tracks, at most 50 (one read's bound). */
function trackedTickers(matches: { tickers: string[] }[] | undefined): string[] {
  return [...new Set((matches ?? []).flatMap((match) => match.tickers))].slice(0, 50);
}

/**
 * The side panel's "On this page", below its tab panels: one message, sent after the first paint, and
 * again whenever the panel's window shows another page (the panel stays open meanwhile). The
 * list shown stays until the new one answers. Below it, the tracked tickers' catalysts within a week.
 */
export function PageMatchesSection({ onOpen }: { onOpen: (playbookId: string) => void }) {
  const matches = useAsync(loadPageMatches);
  const { reload } = matches;
  useEffect(() => watchActivePage(reload), [reload]);
  const tickers = trackedTickers(matches.value?.matches);
  const [week, setWeek] = useState<{ key: string; items: Catalyst[] }>();
  const key = tickers.join(',');
  useEffect(() => {
    if (!key) return;
    let live = true;
    sendMessage('catalystsWithinWeek', { tickers: key.split(',') }).then(
      (items) => live && setWeek({ key, items }),
      // A failed read only leaves the note out: "On this page" stays as it was.
      () => live && setWeek(undefined),
    );
    return () => {
      live = false;
    };
  }, [key]);
  return (
    <>
      <PageMatchList value={matches.value} error={matches.error} onOpen={onOpen} />
      {key && week?.key === key ? <WeekCatalysts items={week.items} /> : null}
    </>
  );
}
