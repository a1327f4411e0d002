import { useEffect, useState } from 'preact/hooks';
import { EventList } from './EventList';
import { sendMessage } from '@/lib/messaging/client';
import { errorText } from '@/lib/pages/errorText';
import type { EventsState } from './eventsPort';
import { plural, t } from '@/lib/i18n';

export interface EventsTabProps {
  events: EventsState;
  active: boolean;
  onBadgeCleared: () => void;
  onOpenPlaybook: (id: string) => void;
}

export function EventsTab({ events, active, onBadgeCleared, onOpenPlaybook }: EventsTabProps) {
  const [polling, setPolling] = useState(false);
  const [pollResult, setPollResult] = useState<string>();
  const [error, setError] = useState<string>();

  // Viewing the tab reads the news: the badge count goes back to zero (also when news arrives while it is open).
  useEffect(() => {
    if (!active || events.unread === 0) return;
    sendMessage('clearEventBadge', {}).then(onBadgeCleared, (failure: unknown) =>
      setError(errorText(failure)),
    );
  }, [active, events.unread]);

  return (
    <EventList
      events={events.events}
      stream={events.stream}
      polling={polling}
      error={error ?? events.error}
      pollResult={pollResult}
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
            setError(errorText(failure));
            setPolling(false);
          },
        );
      }}
      onOpenPlaybook={onOpenPlaybook}
    />
  );
}
