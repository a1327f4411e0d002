import type { Playbook } from '@/lib/api/schemas';
import { isDated, relativeTime, shortTitle } from './format';
import { formatList, formatPercent, plural, t } from '@/lib/i18n';
import { playbookStatusText } from '@/lib/pages/playbookWords';

export interface PlaybookRowProps {
  playbook: Pick<Playbook, 'id' | 'title' | 'visibility' | 'status' | 'tickers' | 'updated_at'>;
  now: number;
  /** The return since capture (a fraction) from the read model, when known. */
  sinceCaptured?: number;
  onOpen: (id: string) => void;
}

/** A return the contract allows (a fraction from −1 to 1000) as a short figure: 0.14 → "+14%". */
export function shortReturn(value: number | undefined): string | undefined {
  return value !== undefined && Number.isFinite(value) && value >= -1 && value <= 1000
    ? formatPercent(value, 0, true)
    : undefined;
}

const MAX_TICKERS = 3;
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
 * One playbook in three lines: the title on up to two (it opens the playbook in the side panel;
 * the whole card is its click target), then the status, the tickers and the date. The date keeps
 * its full width and the tickers give way (at most three, then "+N", ending in "…" when the line is
 * short; all of them in the tooltip), so
 * no number of tickers can push the date out of the row. Screen readers get the tickers in one
 * sentence instead of the chips (the first twenty, then "and N more").
 */
export function PlaybookRow({ playbook, now, sinceCaptured, onOpen }: PlaybookRowProps) {
  const figure = shortReturn(sinceCaptured);
  const shown = playbook.tickers.slice(0, MAX_TICKERS);
  const hidden = playbook.tickers.length - shown.length;
  const short = shortTitle(playbook.title);
  return (
    <li class="pb-row">
      <div class="pb-row-head">
        <button type="button" class="pb-row-open" title={playbook.title} onClick={() => onOpen(playbook.id)}>
          {short === undefined ? (
            <bdi dir="auto">{playbook.title}</bdi>
          ) : (
            // Drawn with its middle cut so its end shows; heard (and in the tooltip) whole. The
            // side panel it opens shows the whole title as its heading.
            <>
              <span class="visually-hidden">{playbook.title}</span>
              <bdi dir="auto" aria-hidden="true">
                {short}
              </bdi>
            </>
          )}
        </button>
        <span class="pb-row-aside">
          {figure ? (
            <span
              class={`pb-return ${sinceCaptured! < 0 ? 'down' : 'up'}`}
              title={t('sinceCaptured.heading')}
            >
              <span class="pb-return-label">{t('sinceCaptured.heading')} </span>
              {figure}
            </span>
          ) : null}
          <span class={`badge vis-${playbook.visibility}`}>
            {t(`popup.visibility.${playbook.visibility}`)}
          </span>
        </span>
      </div>
      <div class="pb-row-meta">
        <span class={`pb-status st-${playbook.status}`}>{playbookStatusText(playbook.status)}</span>
        {shown.length > 0 ? (
          <span class="pb-tickers" title={playbook.tickers.slice(0, MAX_SPOKEN_TICKERS).join(' ')}>
            <span class="visually-hidden">{tickerSentence(playbook.tickers)}</span>
            <span class="pb-ticker-text" aria-hidden="true">
              {shown.join(' ')}
            </span>
            {hidden > 0 ? (
              // Left to right in every language: "+3" must not read "3+" in a right-to-left row.
              <span class="pb-ticker-more" aria-hidden="true" dir="ltr">
                {t('popup.row.moreTickers', { count: hidden })}
              </span>
            ) : null}
          </span>
        ) : null}
        {/* No date the service could give: nothing said ("Updated unknown time" is no sentence). */}
        {isDated(playbook.updated_at) ? (
          <time class="pb-updated" dateTime={playbook.updated_at} title={playbook.updated_at}>
            {t('popup.list.updated', { when: relativeTime(playbook.updated_at, now) })}
          </time>
        ) : null}
      </div>
    </li>
  );
}
