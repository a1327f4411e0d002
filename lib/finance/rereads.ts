/**
 * Re-reads of a page, asked as often as the page likes (every load, pushState, hash change) and
 * done at most once per `intervalMs` per key (a tab, or the one page a content script runs on):
 * a burst becomes one read once it has been quiet `settleMs`, and the answer of a read that a
 * newer request overtook is dropped (it describes an older view). How often we read is then the
 * same whatever the user tracks, and bounded whatever the page does.
 */
export interface RereadOptions {
  settleMs: number;
  intervalMs: number;
}

/** How long a new view is given to draw before it is read. */
export const PAGE_READ_SETTLE_MS = 250;
/** At most one read of a page per this long. */
export const PAGE_READ_INTERVAL_MS = 2000;

const PAGE_READS: RereadOptions = { settleMs: PAGE_READ_SETTLE_MS, intervalMs: PAGE_READ_INTERVAL_MS };

/** Keys (tabs) remembered at once. */
export const MAX_KEYS = 500;

interface KeyState {
  /** Bumped on every request: a read started before the last bump answers for an older view. */
  requests: number;
  timer?: ReturnType<typeof setTimeout>;
  lastStart: number;
}

export function createRereads<K, T>(
  read: (key: K) => Promise<T>,
  apply: (key: K, value: T) => void | Promise<void>,
  { settleMs, intervalMs }: RereadOptions = PAGE_READS,
) {
  const keys = new Map<K, KeyState>();
  const run = async (key: K, state: KeyState) => {
    state.timer = undefined;
    state.lastStart = Date.now();
    const seen = state.requests;
    let value: T;
    try {
      value = await read(key);
    } catch {
      return;
    }
    if (keys.get(key) !== state || state.requests !== seen) return; // Overtaken: the next read answers.
    await apply(key, value);
  };
  const forget = (key: K) => {
    clearTimeout(keys.get(key)?.timer);
    keys.delete(key);
  };
  return {
    /** The page (re)drew: read it soon, once for a burst, never more often than the interval. */
    request(key: K): void {
      let state = keys.get(key);
      if (!state) {
        // Bounded without hearing tabs close (which would wake the worker for every tab): the
        // oldest key goes first; a worker restarts empty anyway.
        if (keys.size >= MAX_KEYS) forget(keys.keys().next().value as K);
        keys.set(key, (state = { requests: 0, lastStart: -Infinity }));
      }
      state.requests++;
      if (state.timer !== undefined) return; // A read is pending: it will see this view.
      const wait = Math.max(settleMs, state.lastStart + intervalMs - Date.now());
      const current = state;
      current.timer = setTimeout(() => void run(key, current), wait);
    },
    forget,
  };
}
