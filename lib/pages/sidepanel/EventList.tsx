import type { RecentEvent } from '@/lib/events/feed';
import { ErrorMessage } from '@/components/ErrorMessage';

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

const EVENT_LABELS: Record<RecentEvent['type'], string> = {
  'playbook.created': 'Playbook created',
  'playbook.updated': 'Playbook updated',
  'backtest.completed': 'Backtest completed',
  'execution.started': 'Live automation started',
  'execution.stopped': 'Live automation stopped',
};

const STREAM_TEXT: Record<EventListProps['stream'], string> = {
  open: 'Live: events arrive as they happen.',
  retrying: 'Live stream interrupted; reconnecting…',
  connecting: 'Connecting to the live stream…',
  off: 'Not streaming; the extension polls in the background.',
};

/** A short, plain summary of what the service put in `data` (numbers and words only). */
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
          {STREAM_TEXT[stream]}
        </p>
        <button type="button" onClick={onPollNow} disabled={polling}>
          {polling ? 'Checking…' : 'Check for events now'}
        </button>
        {pollResult ? <span class="hint">{pollResult}</span> : null}
      </div>
      <ErrorMessage message={error} />
      {events && events.length === 0 ? <p class="hint">No events yet.</p> : null}
      <ul aria-label="Events" class="stack">
        {events?.map((event) => (
          <li key={event.id} class="card" data-event-type={event.type}>
            <div class="row">
              <strong>{EVENT_LABELS[event.type]}</strong>
              <span class="badge">{event.via === 'stream' ? 'via live stream' : 'via polling'}</span>
              <time class="hint" dateTime={event.at}>
                {new Date(event.at).toLocaleString()}
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
              Open playbook {event.playbook_id}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
