import type { RecentEvent } from '@/lib/events/feed';
import type { ErrorParts } from '@/lib/pages/errorText';
import { ProblemMessage } from '@/components/ProblemMessage';
import { backtestResultLine } from '@/lib/backtests/format';
import { catalystChangedSchema } from '@/lib/contract/catalyst';
import { catalystStatusText, catalystWhen } from './CatalystsSection';
import { clipTitle, formatDateTime, t, type TextKey } from '@/lib/i18n';

export interface EventListProps {
  events?: RecentEvent[];
  /** 'open' while the live stream runs; 'retrying' while it reconnects; 'off' when only polling. */
  stream: 'open' | 'retrying' | 'connecting' | 'off';
  polling: boolean;
  error?: ErrorParts;
  pollResult?: string;
  onPollNow: () => void;
  onOpenPlaybook: (id: string) => void;
  /** Playbook titles by id, as the read model knows them (the list's first page). */
  titles?: ReadonlyMap<string, string>;
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

/**
 * The technical record of what the service put in `data` (scalars only), its keys and values as
 * sent, with how it arrived and the playbook's id: for the row's "Details", never its main text.
 */
function record(event: RecentEvent): string {
  const parts = [
    t(event.via === 'stream' ? 'panel.events.viaStream' : 'panel.events.viaPolling'),
    `playbook id: ${event.playbook_id}`,
  ];
  const data = event.data;
  if (data && typeof data === 'object' && !Array.isArray(data))
    for (const [key, value] of Object.entries(data as Record<string, unknown>).slice(0, 6))
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
        parts.push(`${key.replace(/_/g, ' ')}: ${String(value).slice(0, 80)}`);
  return parts.join(' · ');
}

/** A changed catalyst in one line: "AAPL catalyst: Jan 30, 2027 (Confirmed)", or that it was cancelled. */
function catalystLine(data: unknown): string | undefined {
  const parsed = catalystChangedSchema.safeParse(data);
  if (!parsed.success) return undefined;
  const { ticker, at, status } = parsed.data;
  // A date alone is an all-day catalyst; an instant is said in the user's zone.
  const when = catalystWhen({ at, all_day: DAY_ONLY.test(at) });
  if (status === 'cancelled') return t('panel.events.catalystCancelled', { ticker, when });
  return t('panel.events.catalystLine', { ticker, when, status: catalystStatusText(status) });
}

const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** What happened, in the user's terms: a completed backtest's result, a changed catalyst's new date and status. */
function headline(event: RecentEvent): string | undefined {
  if (event.type === 'catalyst.changed') return catalystLine(event.data);
  if (event.type !== 'backtest.completed') return undefined;
  const line = backtestResultLine(event.data);
  return line ? t('panel.events.result', { line }) : undefined;
}

/** The playbook's title: the read model's, else the one a creation event carries; none is known otherwise. */
function titleOf(event: RecentEvent, titles: ReadonlyMap<string, string> | undefined): string | undefined {
  const known = titles?.get(event.playbook_id);
  const sent = (event.data as { title?: unknown } | null | undefined)?.title;
  const title = known ?? (event.type === 'playbook.created' && typeof sent === 'string' ? sent : undefined);
  const clipped = title === undefined ? '' : clipTitle(title);
  return clipped || undefined;
}

function EventRow({
  event,
  titles,
  onOpenPlaybook,
}: { event: RecentEvent } & Pick<EventListProps, 'titles' | 'onOpenPlaybook'>) {
  const title = titleOf(event, titles);
  const line = headline(event);
  return (
    <li class="card" data-event-type={event.type}>
      <div class="row">
        <strong>{t(EVENT_LABELS[event.type])}</strong>
        <time class="hint" dateTime={event.at}>
          {formatDateTime(event.at)}
        </time>
      </div>
      {line ? <p>{line}</p> : null}
      <a
        href={`?playbook=${encodeURIComponent(event.playbook_id)}`}
        onClick={(click) => {
          click.preventDefault();
          onOpenPlaybook(event.playbook_id);
        }}
      >
        {title ? t('panel.events.openTitled', { title }) : t('panel.events.openPlaybook')}
      </a>
      <details class="problem-details">
        <summary>{t('popup.problem.details')}</summary>
        <p class="hint">{record(event)}</p>
      </details>
    </li>
  );
}

export function EventList({
  events,
  stream,
  polling,
  error,
  pollResult,
  onPollNow,
  onOpenPlaybook,
  titles,
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
      <ProblemMessage problem={error} />
      {events && events.length === 0 ? <p class="hint">{t('sidepanel.events.empty')}</p> : null}
      <ul aria-label={t('sidepanel.events.label')} class="stack">
        {events?.map((event) => (
          <EventRow key={event.id} event={event} titles={titles} onOpenPlaybook={onOpenPlaybook} />
        ))}
      </ul>
    </div>
  );
}
