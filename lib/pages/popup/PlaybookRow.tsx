import type { Playbook } from '@/lib/api/schemas';
import { relativeTime } from './format';
import { t } from '@/lib/i18n';

export interface PlaybookRowProps {
  playbook: Pick<Playbook, 'id' | 'title' | 'visibility' | 'status' | 'tickers' | 'updated_at'>;
  now: number;
  onOpen: (id: string) => void;
}

const MAX_TICKERS = 4;

/** One playbook: the title opens it in the side panel; the whole card is its click target. */
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
        {shown.length > 0 ? (
          <span class="pb-tickers" aria-label={t('popup.row.tickers')}>
            {shown.map((ticker) => (
              <span key={ticker} class="ticker">
                {ticker}
              </span>
            ))}
            {hidden > 0 ? (
              <span class="ticker more">{t('popup.row.moreTickers', { count: hidden })}</span>
            ) : null}
          </span>
        ) : null}
        <time class="pb-updated" dateTime={playbook.updated_at} title={playbook.updated_at}>
          {t('popup.list.updated', { when: relativeTime(playbook.updated_at, now) })}
        </time>
      </div>
    </li>
  );
}
