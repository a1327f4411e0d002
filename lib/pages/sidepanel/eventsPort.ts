import { useEffect, useState } from 'preact/hooks';
import type { RecentEvent } from '@/lib/events/feed';
import { EVENTS_PORT, RECENT_EVENTS_MAX } from '@/lib/events/port';
import { sendMessage } from '@/lib/messaging/client';
import { errorParts, type ErrorParts } from '@/lib/pages/errorText';
import { announceOutboxChange, holdPort } from '@/lib/pages/workerPush';

export interface EventsState {
  events?: RecentEvent[];
  unread: number;
  stream: 'open' | 'retrying' | 'connecting' | 'off';
  error?: ErrorParts;
}

/**
 * While the panel is open it holds the `events` port: the worker streams SSE for as long as the
 * port lives and forwards each event here. A worker restart drops the port; the panel reconnects.
 */
export function useEventsPort(): EventsState & { setUnread: (n: number) => void; reload: () => void } {
  const [state, setState] = useState<EventsState>({ unread: 0, stream: 'connecting' });
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let live = true;
    sendMessage('getEventFeed', {}).then(
      (feed) =>
        live &&
        setState((s) => ({
          ...s,
          // Events that arrived on the port before this answer stay.
          events: mergeById(s.events ?? [], feed.events),
          unread: feed.unread,
        })),
      (error: unknown) => live && setState((s) => ({ ...s, error: errorParts(error) })),
    );
    return () => {
      live = false;
    };
  }, [generation]);

  useEffect(
    () =>
      holdPort(
        EVENTS_PORT,
        (message) => {
          if (message.type === 'events')
            setState((s) => ({
              ...s,
              events: mergeById(message.events, s.events ?? []),
              unread: message.unread,
            }));
          else if (message.type === 'stream') setState((s) => ({ ...s, stream: message.state }));
          else if (message.type === 'outbox') announceOutboxChange(message.change);
        },
        () => setState((s) => ({ ...s, stream: 'retrying' })),
      ),
    [],
  );

  return {
    ...state,
    setUnread: (unread) => setState((s) => ({ ...s, unread })),
    reload: () => setGeneration((g) => g + 1),
  };
}

/**
 * The panel keeps what the worker keeps: the newest RECENT_EVENTS_MAX events, deduplicated. A
 * flood of events is bounded here in memory as it is in the feed.
 */
export function mergeById(first: readonly RecentEvent[], second: readonly RecentEvent[]): RecentEvent[] {
  const seen = new Set<string>();
  const out: RecentEvent[] = [];
  for (const event of [...first, ...second]) {
    if (seen.has(event.id)) continue;
    seen.add(event.id);
    out.push(event);
  }
  return out.sort((a, b) => b.at.localeCompare(a.at)).slice(0, RECENT_EVENTS_MAX);
}
