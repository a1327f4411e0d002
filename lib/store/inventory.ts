/**
 * Everything the extension saves, where, why, and who may read it: the first question a
 * security reviewer asks. The code takes its store names, storage keys and alarm names from
 * here, so this list cannot drift from what is saved. Nothing is saved in `storage.sync`
 * (it leaves the machine), `localStorage` or the Cache API. Pure data: content scripts import it.
 */

/** Who may read a saved item. Pages and content scripts get worker data through messages only. */
export type Reader = 'worker' | 'extension pages' | 'content script';

export interface SavedItem {
  /** One line: why it is kept at all. */
  why: string;
  readers: readonly Reader[];
}

/**
 * The one IndexedDB database. It belongs to the extension's origin: content scripts run in the
 * page's origin and cannot open it, which is why the key and the settings that decide where the
 * key goes live here and not in `storage.local` (content scripts can read and write that).
 */
export const DATABASE_NAME = 'playbook-companion';

export const DATABASE_STORES = {
  secrets: {
    why: 'The API key, bound to the API origin it was saved for, so it is never sent elsewhere.',
    readers: ['worker'],
  },
  settings: {
    why: 'Service URL, API URL and polling interval: they decide where the key goes.',
    readers: ['worker'],
  },
  outbox: {
    why: 'Write drafts from the first click until sent or discarded, so a restart loses none.',
    readers: ['worker'],
  },
  state: {
    why: 'The last discovery report, the events feed with its cursor, and which catalyst reminders were shown (id and sequence), across worker restarts.',
    readers: ['worker'],
  },
  discovery: {
    why: 'Cache of discovery documents with their ETags and when each was last confirmed; cleared when the service URL changes.',
    readers: ['worker'],
  },
  meta: {
    why: 'Which one-time migrations of this database have run.',
    readers: ['worker'],
  },
  snapshot: {
    why: "The read model's cache: the popup's state, status, account and drafts, and the first page of each list view, so the popup paints (and switches views) without waiting for the worker; each record bound to the service URL and key fingerprint, all cleared when either changes or a write succeeds.",
    readers: ['worker', 'extension pages'],
  },
} as const satisfies Record<string, SavedItem>;

export type DatabaseStoreName = keyof typeof DATABASE_STORES;

/** WXT storage keys (`area:name`) for whole items, and prefixes for items kept one per origin or tab. */
export interface StorageItem extends SavedItem {
  area: 'local' | 'session';
}

/**
 * `storage.local` is readable by content scripts, so only what they may see goes there.
 * `storage.session` is memory only and, left at its default access level, out of content scripts' reach.
 */
export const STORAGE_ITEMS = {
  extraSites: {
    area: 'local',
    key: 'local:extraSites',
    why: 'Finance sites the user added beyond the built-in list (not secret); the options page asks the worker.',
    readers: ['worker'],
  },
  dismissedSites: {
    area: 'local',
    key: 'local:dismissedSites',
    why: 'Sites where the user hid the offer (host names, at most 500): not secret.',
    readers: ['content script'],
  },
  sidePanelFocus: {
    area: 'session',
    key: 'session:sidePanelFocus',
    why: 'The playbook the popup asked the side panel to show.',
    readers: ['extension pages'],
  },
  popupFirstFrame: {
    area: 'session',
    key: 'session:popupFirstFrame',
    why: "The popup's first frame (the read model's popup record and first rows, at most 16 KB), so a popup opened while the worker sleeps paints without reopening the database; bound to the service URL and key fingerprint, cleared with the snapshot.",
    readers: ['worker', 'extension pages'],
  },
  rateLimitHolds: {
    area: 'session',
    keyPrefix: 'api.rateLimitHold.',
    why: 'Per API origin, until when the service asked us to wait, so a restarted worker still waits.',
    readers: ['worker'],
  },
  draftTimes: {
    area: 'session',
    keyPrefix: 'outbox.draftTimes.',
    why: 'Per tab, when its content script last started drafts, so a page cannot flood confirm windows.',
    readers: ['worker'],
  },
} as const satisfies Record<string, StorageItem & ({ key: string } | { keyPrefix: string })>;

/** Alarms persist in the browser; only the worker sees them. */
export const ALARMS = {
  eventsPoll: {
    name: 'events-poll',
    why: 'Polls listEvents at the interval in the settings while no side panel streams events.',
    readers: ['worker'],
  },
  catalystReminders: {
    name: 'catalyst-reminders',
    why: 'Checks the catalysts of tracked tickers when the next reminder falls due or quiet hours end (and hourly as a fallback).',
    readers: ['worker'],
  },
  writeRetry: {
    namePrefix: 'write-retry:',
    why: 'Per outbox draft, resends a write the service deferred, with the intent the user confirmed.',
    readers: ['worker'],
  },
} as const satisfies Record<string, SavedItem & ({ name: string } | { namePrefix: string })>;

/**
 * Notifications stay in the browser's notification centre after the worker stops, so their ids
 * carry what a click opens; the switchboard routes a click by the prefix.
 */
export const NOTIFICATIONS = {
  event: {
    idPrefix: 'event|',
    why: 'A service event worth knowing (backtest done, live automation started or stopped); a click opens its playbook.',
    readers: ['worker'],
  },
  writtenPlaybook: {
    idPrefix: 'playbook:',
    why: 'A confirmed write succeeded on a playbook; a click opens it.',
    readers: ['worker'],
  },
  reminder: {
    idPrefix: 'reminder|',
    why: 'A catalyst of a tracked ticker is near or moved (or several: one summary); a click opens the playbook it tests.',
    readers: ['worker'],
  },
  write: {
    idPrefix: 'write:',
    why: 'A confirmed write succeeded with no playbook to open (per outbox draft); a click does nothing.',
    readers: ['worker'],
  },
} as const satisfies Record<string, SavedItem & { idPrefix: string }>;
