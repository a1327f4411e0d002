import type { RecentEvent } from './feed';
import type { OutboxEntry } from '@/lib/contract/outbox';

/** Events the extension keeps, in the worker's feed and in an open panel alike. */
export const RECENT_EVENTS_MAX = 100;

/** The long-lived port a side panel opens to receive events while it is open. */
export const EVENTS_PORT = 'events';

/** The port a popup opens to follow draft changes only: it starts no stream. Same messages, `outbox` ones only. */
export const OUTBOX_PORT = 'outbox';

/** Worker → panel. The panel only ever sends `{ type: 'ping' }` back. */
export type EventsPortMessage =
  /** The new events of one batch (newest last), in one message however many there are. */
  | { type: 'events'; events: RecentEvent[]; unread: number }
  | { type: 'stream'; state: 'open' | 'retrying' }
  /** A draft changed (lib/writes pushes every transition), or was removed. */
  | { type: 'outbox'; change: OutboxEntry | { id: string; removed: true } };
