import { useEffect, useState } from 'preact/hooks';
import { EventList } from './EventList';
import { sendMessage } from '@/lib/messaging/client';
import { errorParts, type ErrorParts } from '@/lib/pages/errorText';
import { log } from '@/lib/log';
import type { EventsState } from './eventsPort';
import { plural, t } from '@/lib/i18n';

export interface EventsTabProps {
  events: EventsState;
  active: boolean;
  onBadgeCleared: () => void;
  onOpenPlaybook: (id: string) => void;
}

/** A failure shown in the tab, its technical record logged. */
function shown(failure: unknown): ErrorParts {
  const problem = errorParts(failure);
  log.warn('sidepanel.events-failed', { error: problem.details ?? problem.message });
  return problem;
}

/** The playbooks' titles as the read model knows them (the list's first page, cached offline), once the tab is seen. */
function useTitles(active: boolean): ReadonlyMap<string, string> | undefined {
  const [titles, setTitles] = useState<ReadonlyMap<string, string>>();
  useEffect(() => {
    if (!active || titles) return;
    sendMessage('listPlaybooks', {}).then(
      (page) => setTitles(new Map(page.items.map((item) => [item.id, item.title]))),
      // Without titles, each event says "Open the playbook": nothing else depends on them.
      () => setTitles(new Map()),
    );
  }, [active]);
  return titles;
}

export function EventsTab({ events, active, onBadgeCleared, onOpenPlaybook }: EventsTabProps) {
  const [polling, setPolling] = useState(false);
  const [pollResult, setPollResult] = useState<string>();
  const [error, setError] = useState<ErrorParts>();
  const titles = useTitles(active);

  // Viewing the tab reads the news: the badge count goes back to zero (also when news arrives while it is open).
  useEffect(() => {
    if (!active || events.unread === 0) return;
    sendMessage('clearEventBadge', {}).then(onBadgeCleared, (failure: unknown) => setError(shown(failure)));
  }, [active, events.unread]);

  return (
    <EventList
      events={events.events}
      stream={events.stream}
      polling={polling}
      error={error ?? events.error}
      pollResult={pollResult}
      titles={titles}
      onPollNow={() => {
        setPolling(true);
        setError(undefined);
        sendMessage('pollEventsNow', {}).then(
          ({ received }) => {
            setPollResult(
              received === 0 ? t('sidepanel.events.noneNew') : plural('sidepanel.events.newCount', received),
            );
            setPolling(false);
          },
          (failure: unknown) => {
            setError(shown(failure));
            setPolling(false);
          },
        );
      }}
      onOpenPlaybook={onOpenPlaybook}
    />
  );
}
