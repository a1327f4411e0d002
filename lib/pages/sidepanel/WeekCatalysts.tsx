import type { Catalyst } from '@/lib/contract/catalyst';
import { t } from '@/lib/i18n';
import { catalystStatusText, catalystWhen } from './CatalystsSection';

/**
 * Under "On this page" in the side panel only: the catalysts within a week of the page's tickers
 * the user tracks. The page itself learns nothing (the worker reads them for this panel).
 */
export function WeekCatalysts({ items }: { items?: readonly Catalyst[] }) {
  if (!items || items.length === 0) return null;
  return (
    <ul class="stack-sm week-catalysts" aria-label={t('catalystList.weekLabel')}>
      {items.map((catalyst) => (
        <li key={catalyst.id}>
          {t('catalystList.weekItem', {
            ticker: catalyst.ticker,
            what: catalyst.title,
            when: catalystWhen(catalyst),
            status: catalystStatusText(catalyst.status),
          })}
        </li>
      ))}
    </ul>
  );
}
