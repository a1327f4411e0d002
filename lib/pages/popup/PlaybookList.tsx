import type { Playbook } from '@/lib/api/schemas';
import type { Staleness } from '@/lib/messaging/protocol';
import { PlaybookRow } from './PlaybookRow';
import { clockTime, relativeTime } from './format';
import { ErrorMessage } from '@/components/ErrorMessage';

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
  emptyText: string;
  onOpen: (id: string) => void;
  onLoadMore: () => void;
  onHover?: (hovered: boolean) => void;
  /** Offered when a saved copy is shown because the network failed. */
  onRetry?: () => void;
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
          <p role="status">
            {cached ? <span class="badge cached">Cached</span> : null}
            {cached ? ' ' : null}
            {cached
              ? `Saved ${relativeTime(fetchedAt, now)} (${clockTime(fetchedAt)})`
              : `Updated ${relativeTime(fetchedAt, now)}`}
            {stale ? ` · ${stale.kind === 'failed' ? stale.reason : 'Refreshing…'}` : ''}
          </p>
          {failed && props.onRetry ? (
            <button type="button" class="small" onClick={props.onRetry}>
              Retry
            </button>
          ) : null}
        </div>
      ) : null}
      <ul
        aria-label="Playbooks"
        aria-busy={loading ? 'true' : undefined}
        class="pb-items"
        onPointerEnter={() => props.onHover?.(true)}
        onPointerLeave={() => props.onHover?.(false)}
      >
        {(props.rowLimit === undefined ? items : items.slice(0, props.rowLimit)).map((playbook) => (
          <PlaybookRow key={playbook.id} playbook={playbook} now={now} onOpen={props.onOpen} />
        ))}
      </ul>
      {loading && items.length === 0 ? <p class="hint">Loading playbooks…</p> : null}
      {!loading && items.length === 0 && !hasMore ? <p class="empty">{props.emptyText}</p> : null}
      <div class="pb-list-foot">
        <span class="hint">
          {items.length > 0
            ? hasMore
              ? `${items.length} shown, more available`
              : `All ${items.length} shown`
            : ''}
        </span>
        {hasMore ? (
          <button
            type="button"
            onClick={props.onLoadMore}
            disabled={loadingMore}
            aria-busy={loadingMore ? 'true' : undefined}
          >
            Load more
          </button>
        ) : null}
      </div>
      <ErrorMessage message={props.moreError} />
    </div>
  );
}
