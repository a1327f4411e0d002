import { useEffect } from 'preact/hooks';
import { PageMatchList } from '@/components/PageMatchList';
import { loadPageMatches, watchActivePage } from '@/lib/pages/pageMatches';
import { useAsync } from '@/lib/pages/useAsync';

/**
 * The side panel's "On this page", below its tab panels: one message, sent after the first paint, and
 * again whenever the panel's window shows another page (the panel stays open meanwhile). The
 * list shown stays until the new one answers.
 */
export function PageMatchesSection({ onOpen }: { onOpen: (playbookId: string) => void }) {
  const matches = useAsync(loadPageMatches);
  const { reload } = matches;
  useEffect(() => watchActivePage(reload), [reload]);
  return <PageMatchList value={matches.value} error={matches.error} onOpen={onOpen} />;
}
