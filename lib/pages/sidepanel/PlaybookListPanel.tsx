import type { Playbook } from '@/lib/api/schemas';
import { ErrorMessage } from '@/components/ErrorMessage';

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

export function PlaybookListPanel(props: PlaybookListPanelProps) {
  const { items, error, loading, hasMore, selected, refreshing, refreshErrors } = props;
  return (
    <div class="stack">
      <div class="row">
        <button type="button" onClick={props.onRefreshSelected} disabled={selected.size === 0 || refreshing}>
          {refreshing ? 'Refreshing…' : `Refresh selected (${selected.size})`}
        </button>
        <button
          type="button"
          onClick={props.onCompare}
          disabled={props.compared.length < COMPARE_MIN || props.compared.length > COMPARE_MAX}
          aria-describedby="compare-hint"
        >
          Compare
        </button>
        <span id="compare-hint" class="hint">
          Choose {COMPARE_MIN}–{COMPARE_MAX} playbooks to compare ({props.compared.length} chosen).
        </span>
        {props.freshness ? <span class="hint">{props.freshness}</span> : null}
        {props.refreshedCount !== undefined ? (
          <span role="status" class="hint">
            Refreshed {props.refreshedCount} of {props.refreshedCount + Object.keys(refreshErrors).length} in
            one batch read.
          </span>
        ) : null}
      </div>
      <ErrorMessage message={error} />
      {!items && loading ? <p class="hint">Loading playbooks…</p> : null}
      {items && items.length === 0 ? <p class="hint">No playbooks yet.</p> : null}
      <ul aria-label="Playbooks" class="stack playbook-list">
        {items?.map((playbook) => (
          <li key={playbook.id} class="card row">
            <input
              type="checkbox"
              aria-label={`Select ${playbook.title}`}
              checked={selected.has(playbook.id)}
              onChange={() => props.onToggle(playbook.id)}
            />
            <label class="compare-choice">
              <input
                type="checkbox"
                aria-label={`Compare ${playbook.title}`}
                checked={props.compared.includes(playbook.id)}
                disabled={!props.compared.includes(playbook.id) && props.compared.length >= COMPARE_MAX}
                onChange={() => props.onToggleCompare(playbook.id)}
              />
              <span class="hint" aria-hidden="true">
                compare
              </span>
            </label>
            <button type="button" class="link" onClick={() => props.onOpen(playbook.id)}>
              {playbook.title}
            </button>
            <span class="badge">{playbook.status}</span>
            <span class="hint">{playbook.tickers.join(', ')}</span>
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
          Load more
        </button>
      ) : null}
    </div>
  );
}
