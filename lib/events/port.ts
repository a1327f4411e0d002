import type { RecentEvent } from './feed';
import type { OutboxEntry } from '@/lib/store/outbox';

/** The long-lived port a side panel opens to receive events while it is open. */
export const EVENTS_PORT = 'events';

/** Worker → panel. The panel only ever sends `{ type: 'ping' }` back. */
export type EventsPortMessage =
  | { type: 'event'; event: RecentEvent; unread: number }
  | { type: 'stream'; state: 'open' | 'retrying' }
  /** A draft changed (lib/writes pushes every transition), or was removed. */
  | { type: 'outbox'; change: OutboxEntry | { id: string; removed: true } };
