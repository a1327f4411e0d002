import type { RecentEvent } from '@/lib/events/feed';
import { ErrorMessage } from '@/components/ErrorMessage';
import { formatDateTime, t, type TextKey } from '@/lib/i18n';

export interface EventListProps {
  events?: RecentEvent[];
  /** 'open' while the live stream runs; 'retrying' while it reconnects; 'off' when only polling. */
  stream: 'open' | 'retrying' | 'connecting' | 'off';
  polling: boolean;
  error?: string;
  pollResult?: string;
  onPollNow: () => void;
  onOpenPlaybook: (id: string) => void;
}

const EVENT_LABELS: Record<RecentEvent['type'], TextKey> = {
  'playbook.created': 'sidepanel.events.type.playbookCreated',
  'playbook.updated': 'sidepanel.events.type.playbookUpdated',
  'backtest.completed': 'sidepanel.events.type.backtestCompleted',
  'execution.started': 'sidepanel.events.type.executionStarted',
  'execution.stopped': 'sidepanel.events.type.executionStopped',
  'catalyst.changed': 'sidepanel.events.type.catalystChanged',
};

const STREAM_TEXT: Record<EventListProps['stream'], TextKey> = {
  open: 'sidepanel.events.streamOpen',
  retrying: 'sidepanel.events.streamRetrying',
  connecting: 'sidepanel.events.streamConnecting',
  off: 'sidepanel.events.streamOff',
};

/** A short, plain summary of what the service put in `data` (numbers and words only), its keys and values as sent. */
function summary(event: RecentEvent): string {
  const data = event.data;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(data as Record<string, unknown>).slice(0, 6)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      parts.push(`${key.replace(/_/g, ' ')}: ${String(value).slice(0, 80)}`);
  }
  return parts.join(' · ');
}

export function EventList({
  events,
  stream,
  polling,
  error,
  pollResult,
  onPollNow,
  onOpenPlaybook,
}: EventListProps) {
  return (
    <div class="stack events">
      <div class="row">
        <p role="status" class="hint">
          {t(STREAM_TEXT[stream])}
        </p>
        <button type="button" onClick={onPollNow} disabled={polling}>
          {polling ? t('sidepanel.events.checking') : t('sidepanel.events.checkNow')}
        </button>
        {pollResult ? <span class="hint">{pollResult}</span> : null}
      </div>
      <ErrorMessage message={error} />
      {events && events.length === 0 ? <p class="hint">{t('sidepanel.events.empty')}</p> : null}
      <ul aria-label={t('sidepanel.events.label')} class="stack">
        {events?.map((event) => (
          <li key={event.id} class="card" data-event-type={event.type}>
            <div class="row">
              <strong>{t(EVENT_LABELS[event.type])}</strong>
              <span class="badge">
                {event.via === 'stream' ? t('sidepanel.events.viaStream') : t('sidepanel.events.viaPolling')}
              </span>
              <time class="hint" dateTime={event.at}>
                {formatDateTime(event.at)}
              </time>
            </div>
            {summary(event) ? <p class="hint">{summary(event)}</p> : null}
            <a
              href={`?playbook=${encodeURIComponent(event.playbook_id)}`}
              onClick={(click) => {
                click.preventDefault();
                onOpenPlaybook(event.playbook_id);
              }}
            >
              {t('sidepanel.events.openPlaybook', { id: event.playbook_id })}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
