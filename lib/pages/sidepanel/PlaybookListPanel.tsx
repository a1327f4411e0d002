import { useRef } from 'preact/hooks';
import type { Playbook } from '@/lib/api/schemas';
import { ErrorMessage } from '@/components/ErrorMessage';
import { t, formatList } from '@/lib/i18n';
import { playbookStatusText } from '@/lib/pages/playbookWords';
import type { ListFreshness, UpdateCheck } from './usePlaybookList';

export const COMPARE_MIN = 2;
export const COMPARE_MAX = 4;

/** "Choose playbooks…" and what can be done with the chosen ones. */
interface ChoiceProps {
  /** Rows show a checkbox each (labelled by the title) instead of opening the playbook. */
  choosing: boolean;
  /** The chosen playbooks, in the order chosen. */
  chosen: readonly string[];
  /** The last "Check for updates" (a batch re-read from the service) and its outcome per row. */
  check: UpdateCheck;
  onChoosing: (on: boolean) => void;
  onToggle: (id: string) => void;
  onCompare: () => void;
  onCheck: () => void;
}

export interface PlaybookListPanelProps extends ChoiceProps {
  items?: Playbook[];
  error?: string;
  loading: boolean;
  hasMore: boolean;
  /** "Cached · saved …" and why, when the list came from the cache. */
  freshness?: ListFreshness;
  onOpen: (id: string) => void;
  onLoadMore: () => void;
  /** Read the list again, after it could not be read. */
  onRetry: () => void;
}

/**
 * The list's toolbar. By default one button, "Choose playbooks…" (pressed while choosing); while
 * choosing, Compare and Check for updates act on the chosen rows, and Done ends the mode (focus
 * goes back to the button that began it, the others leaving with the mode).
 */
function ChoiceToolbar(props: ChoiceProps & { freshness?: ListFreshness }) {
  const { choosing, check } = props;
  const count = props.chosen.length;
  const begin = useRef<HTMLButtonElement>(null);
  const checked = Object.keys(check.errors).length + (check.done ?? 0);
  return (
    <div class="row">
      <button
        type="button"
        ref={begin}
        aria-pressed={choosing ? 'true' : 'false'}
        onClick={() => props.onChoosing(!choosing)}
      >
        {t('sidepanel.list.choose')}
      </button>
      {choosing ? (
        <>
          <button
            type="button"
            onClick={props.onCompare}
            disabled={count < COMPARE_MIN || count > COMPARE_MAX}
            aria-describedby="compare-hint"
          >
            {t('sidepanel.list.compareCount', { count })}
          </button>
          <button type="button" onClick={props.onCheck} disabled={count === 0 || check.running}>
            {check.running ? t('sidepanel.list.checking') : t('sidepanel.list.checkUpdates', { count })}
          </button>
          <button
            type="button"
            onClick={() => {
              props.onChoosing(false);
              begin.current?.focus();
            }}
          >
            {t('sidepanel.list.done')}
          </button>
          <span id="compare-hint" class="hint">
            {t('sidepanel.list.compareHint', { min: COMPARE_MIN, max: COMPARE_MAX, chosen: count })}
          </span>
        </>
      ) : null}
      {props.freshness ? (
        <span role="status" class="row">
          <span class="badge warn">{props.freshness.saved}</span>
          {props.freshness.reason ? <span class="hint">{props.freshness.reason}</span> : null}
        </span>
      ) : null}
      <span role="status" class="hint">
        {check.done !== undefined ? t('sidepanel.list.checked', { done: check.done, total: checked }) : ''}
      </span>
    </div>
  );
}

/** One playbook: one Tab stop, its title (opening it, or while choosing, the checkbox it labels). */
function PlaybookListRow(props: {
  playbook: Playbook;
  choosing: boolean;
  chosen: boolean;
  problem?: string;
  onToggle: (id: string) => void;
  onOpen: (id: string) => void;
}) {
  const { playbook } = props;
  return (
    <li class="card row">
      {props.choosing ? (
        <label class="playbook-choice">
          <input type="checkbox" checked={props.chosen} onChange={() => props.onToggle(playbook.id)} />
          <span dir="auto">{playbook.title}</span>
        </label>
      ) : (
        <button type="button" class="link" onClick={() => props.onOpen(playbook.id)}>
          <bdi dir="auto">{playbook.title}</bdi>
        </button>
      )}
      <span class="badge">{playbookStatusText(playbook.status)}</span>
      <span class="hint">{formatList(playbook.tickers)}</span>
      {props.problem ? (
        <span class="error" role="note">
          {props.problem}
        </span>
      ) : null}
    </li>
  );
}

export function PlaybookListPanel(props: PlaybookListPanelProps) {
  const { items, loading } = props;
  return (
    <div class="stack">
      <ChoiceToolbar {...props} />
      <ErrorMessage message={props.error} />
      {props.error && !items && !loading ? (
        <button type="button" onClick={props.onRetry}>
          {t('sidepanel.list.retry')}
        </button>
      ) : null}
      {!items && loading ? <p class="hint">{t('sidepanel.list.loading')}</p> : null}
      {items && items.length === 0 ? <p class="hint">{t('sidepanel.list.empty')}</p> : null}
      <ul aria-label={t('sidepanel.list.label')} class="stack playbook-list">
        {items?.map((playbook) => (
          <PlaybookListRow
            key={playbook.id}
            playbook={playbook}
            choosing={props.choosing}
            chosen={props.chosen.includes(playbook.id)}
            problem={props.check.errors[playbook.id]}
            onToggle={props.onToggle}
            onOpen={props.onOpen}
          />
        ))}
      </ul>
      {props.hasMore ? (
        <button type="button" onClick={props.onLoadMore} disabled={loading}>
          {t('sidepanel.list.loadMore')}
        </button>
      ) : null}
    </div>
  );
}
