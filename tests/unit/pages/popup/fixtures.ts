import type { Playbook } from '@/lib/api/schemas';
import type { AppState, PlaybookPage, PopupOpened } from '@/lib/messaging/protocol';

/** The popup's tests' worker state: a key saved for the sandbox's address. */
export const keyedState: AppState = {
  version: '0.1.0',
  settings: { serviceUrl: 'http://127.0.0.1:8787', apiUrl: 'http://127.0.0.1:8787/api/v1', pollMinutes: 5 },
  key: { set: true, savedAt: Date.UTC(2026, 10, 2, 9, 30) },
  hostAccess: { missingOrigins: [] },
};

export const keylessState: AppState = { ...keyedState, key: { set: false } };

export function playbook(id: string, title: string): Playbook {
  return {
    id,
    title,
    thesis: 't',
    visibility: 'private',
    status: 'draft',
    tickers: [],
    owner: { id: 'u', name: 'U' },
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    etag: '"1"',
  };
}

export function page(items: Playbook[], over: Partial<PlaybookPage> = {}): PlaybookPage {
  return { items, nextCursor: null, hasMore: false, source: 'network', fetchedAt: Date.now(), ...over };
}

/** The worker's `openPopup` answer (also the snapshot's shape) for `state`. */
export function opened(state: AppState, over: Partial<PopupOpened> = {}): PopupOpened {
  return { binding: 'b', state, overview: { deprecations: [] }, outbox: [], savedAt: Date.now(), ...over };
}
