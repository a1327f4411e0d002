import type { PopupDraft } from '@/lib/store/snapshot';
import { relativeTime } from './format';
import { plural, t } from '@/lib/i18n';
import { storedFailure } from '@/lib/pages/errorText';

export interface OutboxListProps {
  entries: PopupDraft[];
  now: number;
  /** Ids with an action under way, so their buttons wait. */
  busyIds?: readonly string[];
  onReopen: (id: string) => void;
  onDiscard: (id: string) => void;
  onRetry: (id: string) => void;
  /** The playbooks the popup knows: a draft that acts on one is named by its title. */
  playbooks?: readonly { id: string; title: string }[];
}

/**
 * A short, human name for a draft: the title it gives a playbook, else the title of the playbook
 * it acts on (a backtest, live automation), else what it will do. Never an id.
 */
function draftTitle(entry: PopupDraft, playbooks: OutboxListProps['playbooks'] = []): string {
  const draft = entry.draft as
    { body?: { title?: unknown }; playbookId?: unknown; path?: { id?: unknown } } | undefined;
  const title = draft?.body?.title;
  if (typeof title === 'string' && title.trim()) return title.trim();
  const playbookId = draft?.playbookId ?? draft?.path?.id;
  const known = playbooks.find((playbook) => playbook.id === playbookId)?.title.trim();
  return known || entry.label;
}

/** Drafts not yet sent: reopen the confirm window, discard, or retry one that failed. */
export function OutboxList(props: OutboxListProps) {
  const { entries, now, busyIds = [], onReopen, onDiscard, onRetry } = props;
  const open = entries.filter((entry) => entry.status !== 'sent');
  if (open.length === 0) return null;
  return (
    <section class="outbox stack-sm" aria-labelledby="outbox-title">
      <h2 id="outbox-title">{plural('popup.outbox.heading', open.length)}</h2>
      <ul aria-label={t('popup.outbox.label')} class="outbox-items">
        {open.map((entry) => {
          const title = draftTitle(entry, props.playbooks);
          const busy = busyIds.includes(entry.id) || entry.status === 'sending';
          return (
            <li key={entry.id} class={`outbox-row ob-${entry.status}`}>
              <div class="outbox-text">
                <strong class="outbox-title" title={title} dir="auto">
                  {title}
                </strong>
                <span class="hint">
                  {entry.label} · {t(`popup.outbox.${entry.status}`)} · {relativeTime(entry.updatedAt, now)}
                </span>
                {entry.status === 'failed' && entry.error ? (
                  <span class="error" dir="auto">
                    {storedFailure(entry)?.message}
                  </span>
                ) : null}
              </div>
              <div class="row outbox-actions">
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => onReopen(entry.id)}
                  aria-label={t('popup.outbox.reviewNamed', { title })}
                >
                  {t('popup.outbox.review')}
                </button>
                {entry.status === 'failed' ? (
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() => onRetry(entry.id)}
                    aria-label={t('popup.outbox.retryNamed', { title })}
                  >
                    {t('popup.outbox.retry')}
                  </button>
                ) : null}
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => onDiscard(entry.id)}
                  aria-label={t('popup.outbox.discardNamed', { title })}
                >
                  {t('popup.outbox.discard')}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
