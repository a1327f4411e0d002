import type { Playbook } from '@/lib/api/schemas';
import type { Staleness } from '@/lib/messaging/protocol';
import { PlaybookRow } from './PlaybookRow';
import { clockTime, lineStart, relativeTime } from './format';
import { ErrorMessage } from '@/components/ErrorMessage';
import { plural, t } from '@/lib/i18n';

export interface PlaybookListProps {
  items: Playbook[];
  /** Draw only the first this many rows for now; the counts below still speak of all of them. */
  rowLimit?: number;
  hasMore: boolean;
  source?: 'network' | 'cache';
  fetchedAt?: number;
  /** Why a cached copy is shown (it is being refreshed, or the network failed). */
  stale?: Staleness;
  loading: boolean;
  loadingMore: boolean;
  /** Set when the latest load-more failed; the list keeps what it has. */
  moreError?: string;
  now: number;
  /** Each playbook's return since capture by id, from the read model (the rows' short figure). */
  returns?: Record<string, number>;
  /** What an empty list says; none while a failed read leaves the list unknown. */
  emptyText?: string;
  onOpen: (id: string) => void;
  onLoadMore: () => void;
  onHover?: (hovered: boolean) => void;
}

/** The list, its freshness line and "Load more"; never claims completeness while the service has more. */
export function PlaybookList(props: PlaybookListProps) {
  const { items, hasMore, source, fetchedAt, stale, loading, loadingMore, now } = props;
  const cached = source === 'cache';
  const failed = cached && stale?.kind === 'failed';
  return (
    <div class="pb-list stack-sm">
      {fetchedAt !== undefined ? (
        <div class={`freshness${failed ? ' stale' : ''}`}>
          {/* One line: a failed refresh is said in words (no badge), its technical reason in the
              tooltip; its one retry is the status line's button (StatusRegion), not a second one here. */}
          <p role="status">
            {cached && !failed ? <span class="badge cached">{t('popup.list.cached')}</span> : null}
            {cached && !failed ? ' ' : null}
            {/* Keyed by the kind of line: the saved copy's words and the fresh ones are two lines,
                one replacing the other, not one text moved left when the badge goes. */}
            <span key={cached ? 'saved' : 'updated'} title={failed ? stale.reason : undefined}>
              {cached
                ? lineStart(
                    t('popup.list.saved', {
                      when: relativeTime(fetchedAt, now),
                      clock: clockTime(fetchedAt),
                    }),
                  )
                : t('popup.list.updated', { when: relativeTime(fetchedAt, now) })}
              {stale
                ? ` · ${stale.kind === 'failed' ? t('popup.list.notUpdated') : t('popup.list.refreshing')}`
                : ''}
            </span>
          </p>
        </div>
      ) : null}
      <ul
        aria-label={t('popup.list.label')}
        aria-busy={loading ? 'true' : undefined}
        class="pb-items"
        onPointerEnter={() => props.onHover?.(true)}
        onPointerLeave={() => props.onHover?.(false)}
      >
        {(props.rowLimit === undefined ? items : items.slice(0, props.rowLimit)).map((playbook) => (
          <PlaybookRow
            key={playbook.id}
            playbook={playbook}
            now={now}
            sinceCaptured={props.returns?.[playbook.id]}
            onOpen={props.onOpen}
          />
        ))}
      </ul>
      {loading && items.length === 0 ? <p class="hint">{t('popup.list.loading')}</p> : null}
      {!loading && items.length === 0 && !hasMore && props.emptyText ? (
        <p class="empty">{props.emptyText}</p>
      ) : null}
      <div class="pb-list-foot">
        <span class="hint">
          {items.length > 0
            ? hasMore
              ? plural('popup.list.shownMore', items.length)
              : plural('popup.list.allShown', items.length)
            : ''}
        </span>
        {hasMore ? (
          <button
            type="button"
            onClick={props.onLoadMore}
            disabled={loadingMore}
            aria-busy={loadingMore ? 'true' : undefined}
          >
            {t('popup.list.loadMore')}
          </button>
        ) : null}
      </div>
      <ErrorMessage message={props.moreError} />
    </div>
  );
}
