import { PageMatchList } from '@/components/PageMatchList';
import { loadPageMatches } from '@/lib/pages/pageMatches';
import { useAsync } from '@/lib/pages/useAsync';

/** The side panel's "On this page", above its tabs: one message, sent after the first paint. */
export function PageMatchesSection({ onOpen }: { onOpen: (playbookId: string) => void }) {
  const matches = useAsync(loadPageMatches);
  return <PageMatchList value={matches.value} error={matches.error} onOpen={onOpen} />;
}
