import type { Playbook } from '@/lib/api/schemas';
import { ErrorMessage } from '@/components/ErrorMessage';
import { t, type TextKey, formatList } from '@/lib/i18n';

export interface PlaybookListPanelProps {
  items?: Playbook[];
  error?: string;
  loading: boolean;
  hasMore: boolean;
  /** "cached, updated …" when the list came from the cache. */
  freshness?: string;
  selected: ReadonlySet<string>;
  refreshing: boolean;
  /** Per-item outcome of the last batch refresh: id → error text (absent = refreshed). */
  refreshErrors: Record<string, string>;
  refreshedCount?: number;
  onToggle: (id: string) => void;
  onOpen: (id: string) => void;
  onLoadMore: () => void;
  onRefreshSelected: () => void;
  /** Playbooks chosen for comparison, in the order chosen. */
  compared: readonly string[];
  onToggleCompare: (id: string) => void;
  onCompare: () => void;
}

export const COMPARE_MIN = 2;
export const COMPARE_MAX = 4;

/**
 * The playbook's status as a word of the UI language, the same words as the popup's rows; a status
 * this build does not know, as sent.
 */
export const PLAYBOOK_STATUS: Record<string, TextKey | undefined> = {
  draft: 'popup.playbookStatus.draft',
  active: 'popup.playbookStatus.active',
  paused: 'popup.playbookStatus.paused',
  archived: 'popup.playbookStatus.archived',
};

export function playbookStatusText(status: string): string {
  const key = PLAYBOOK_STATUS[status];
  return key ? t(key) : status;
}

export function PlaybookListPanel(props: PlaybookListPanelProps) {
  const { items, error, loading, hasMore, selected, refreshing, refreshErrors } = props;
  return (
    <div class="stack">
      <div class="row">
        <button type="button" onClick={props.onRefreshSelected} disabled={selected.size === 0 || refreshing}>
          {refreshing
            ? t('sidepanel.list.refreshing')
            : t('sidepanel.list.refreshSelected', { count: selected.size })}
        </button>
        <button
          type="button"
          onClick={props.onCompare}
          disabled={props.compared.length < COMPARE_MIN || props.compared.length > COMPARE_MAX}
          aria-describedby="compare-hint"
        >
          {t('sidepanel.list.compare')}
        </button>
        <span id="compare-hint" class="hint">
          {t('sidepanel.list.compareHint', {
            min: COMPARE_MIN,
            max: COMPARE_MAX,
            chosen: props.compared.length,
          })}
        </span>
        {props.freshness ? <span class="hint">{props.freshness}</span> : null}
        {props.refreshedCount !== undefined ? (
          <span role="status" class="hint">
            {t('sidepanel.list.refreshed', {
              done: props.refreshedCount,
              total: props.refreshedCount + Object.keys(refreshErrors).length,
            })}
          </span>
        ) : null}
      </div>
      <ErrorMessage message={error} />
      {!items && loading ? <p class="hint">{t('sidepanel.list.loading')}</p> : null}
      {items && items.length === 0 ? <p class="hint">{t('sidepanel.list.empty')}</p> : null}
      <ul aria-label={t('sidepanel.list.label')} class="stack playbook-list">
        {items?.map((playbook) => (
          <li key={playbook.id} class="card row">
            {/* Chooses the row for "Refresh selected": said on screen as well as to screen readers. */}
            <label class="compare-choice">
              <input
                type="checkbox"
                aria-label={t('sidepanel.list.select', { title: playbook.title })}
                checked={selected.has(playbook.id)}
                onChange={() => props.onToggle(playbook.id)}
              />
              <span class="hint" aria-hidden="true">
                {t('sidepanel.list.selectShort')}
              </span>
            </label>
            <label class="compare-choice">
              <input
                type="checkbox"
                aria-label={t('sidepanel.list.compareOne', { title: playbook.title })}
                checked={props.compared.includes(playbook.id)}
                disabled={!props.compared.includes(playbook.id) && props.compared.length >= COMPARE_MAX}
                onChange={() => props.onToggleCompare(playbook.id)}
              />
              <span class="hint" aria-hidden="true">
                {t('sidepanel.list.compareShort')}
              </span>
            </label>
            <button type="button" class="link" onClick={() => props.onOpen(playbook.id)}>
              <bdi dir="auto">{playbook.title}</bdi>
            </button>
            <span class="badge">{playbookStatusText(playbook.status)}</span>
            <span class="hint">{formatList(playbook.tickers)}</span>
            {refreshErrors[playbook.id] ? (
              <span class="error" role="note">
                {refreshErrors[playbook.id]}
              </span>
            ) : null}
          </li>
        ))}
      </ul>
      {hasMore ? (
        <button type="button" onClick={props.onLoadMore} disabled={loading}>
          {t('sidepanel.list.loadMore')}
        </button>
      ) : null}
    </div>
  );
}
