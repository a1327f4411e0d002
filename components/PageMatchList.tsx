import { t, formatList } from '@/lib/i18n';
import type { PageMatches } from '@/lib/messaging/protocol';

export interface PageMatchListProps {
  /** Undefined while loading. */
  value?: PageMatches;
  error?: string;
  onOpen: (playbookId: string) => void;
}

/**
 * "On this page": the user's playbooks that track the tickers of the page in the active tab.
 * Nothing at all on a page without tickers, so other pages keep their space.
 */
export function PageMatchList({ value, error, onOpen }: PageMatchListProps) {
  if (error || !value || value.tickers.length === 0) return null;
  const tickers = formatList(value.tickers.slice(0, 5));
  return (
    <section class="page-matches stack" aria-labelledby="page-matches-heading">
      <h2 id="page-matches-heading">{t('common.pageMatches.heading')}</h2>
      {value.matches.length === 0 ? (
        <p class="muted">{t('common.pageMatches.none', { tickers })}</p>
      ) : (
        <ul class="page-match-list">
          {value.matches.map((match) => (
            <li key={match.id}>
              <button type="button" class="link-button" onClick={() => onOpen(match.id)}>
                <bdi dir="auto">{match.title}</bdi>
              </button>{' '}
              <span class="muted">{formatList(match.tickers)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
