import type { Playbook } from '@/lib/api/schemas';
import { relativeTime } from './format';
import { formatList, plural, t } from '@/lib/i18n';

export interface PlaybookRowProps {
  playbook: Pick<Playbook, 'id' | 'title' | 'visibility' | 'status' | 'tickers' | 'updated_at'>;
  now: number;
  onOpen: (id: string) => void;
}

const MAX_TICKERS = 4;
/** The tickers a screen reader hears by name; the rest are counted ("and 12 more"). */
export const MAX_SPOKEN_TICKERS = 20;

/** The tickers in one sentence: at most MAX_SPOKEN_TICKERS by name (service data is unbounded). */
function tickerSentence(tickers: readonly string[]): string {
  const spoken = tickers.slice(0, MAX_SPOKEN_TICKERS);
  const rest = tickers.length - spoken.length;
  const list = formatList(spoken);
  return rest > 0 ? plural('popup.row.tickerListMore', rest, { list }) : t('popup.row.tickerList', { list });
}

/**
 * One playbook: the title opens it in the side panel; the whole card is its click target. The
 * status and the date share a line, the date at its full width; the tickers have their own line
 * (at most four, then "+N"), so no number of tickers can push the date out of the row. Screen
 * readers get the tickers in one sentence instead of the chips (the first twenty, then "and N more").
 */
export function PlaybookRow({ playbook, now, onOpen }: PlaybookRowProps) {
  const shown = playbook.tickers.slice(0, MAX_TICKERS);
  const hidden = playbook.tickers.length - shown.length;
  return (
    <li class="pb-row">
      <div class="pb-row-head">
        <button type="button" class="pb-row-open" title={playbook.title} onClick={() => onOpen(playbook.id)}>
          {playbook.title}
        </button>
        <span class={`badge vis-${playbook.visibility}`}>{t(`popup.visibility.${playbook.visibility}`)}</span>
      </div>
      <div class="pb-row-meta">
        <span class={`pb-status st-${playbook.status}`}>{t(`popup.playbookStatus.${playbook.status}`)}</span>
        <time class="pb-updated" dateTime={playbook.updated_at} title={playbook.updated_at}>
          {t('popup.list.updated', { when: relativeTime(playbook.updated_at, now) })}
        </time>
      </div>
      {shown.length > 0 ? (
        <div class="pb-tickers">
          <span class="visually-hidden">{tickerSentence(playbook.tickers)}</span>
          <span class="pb-ticker-chips" aria-hidden="true">
            {shown.map((ticker) => (
              <span key={ticker} class="ticker">
                {ticker}
              </span>
            ))}
            {hidden > 0 ? (
              <span class="ticker more">{t('popup.row.moreTickers', { count: hidden })}</span>
            ) : null}
          </span>
        </div>
      ) : null}
    </li>
  );
}
