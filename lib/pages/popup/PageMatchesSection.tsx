import { PageMatchList } from '@/components/PageMatchList';
import { loadPageMatches } from '@/lib/pages/pageMatches';
import { useAsync } from '@/lib/pages/useAsync';

/** The popup's "On this page": one message, sent after the first paint. */
export function PageMatchesSection({ onOpen }: { onOpen: (playbookId: string) => void }) {
  const matches = useAsync(loadPageMatches);
  return <PageMatchList value={matches.value} error={matches.error} onOpen={onOpen} />;
}
