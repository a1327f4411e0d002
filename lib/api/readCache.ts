/**
 * Cache of popup reads in the extension's database (the `reads` store), for stale-while-revalidate:
 * the popup shows the last answer at once, marked stale when old, while a fresh one is fetched
 * (lib/background/reads.ts decides when to answer from it).
 */
import { clear, get, promisifyRequest } from 'idb-keyval';
import { keyValueStore } from '@/lib/store/db';
import type { ReadRecord } from '@/lib/store/schema';

export interface CachedRead<T> {
  value: T;
  fetchedAt: number;
  stale: boolean;
}

export interface ReadCacheOptions {
  now?: () => number;
  /** Age after which an entry is shown as stale and revalidated. */
  freshForMs?: number;
}

export interface ReadCache {
  get<T>(key: string): Promise<CachedRead<T> | undefined>;
  /** Runs the loader (once for concurrent callers of the same key) and stores its value. */
  revalidate<T>(key: string, loader: () => Promise<T>): Promise<CachedRead<T>>;
  /** Used when the service URL changes: nothing of the old service may show. */
  clear(): Promise<void>;
}

export const DEFAULT_FRESH_FOR_MS = 60_000;

/** The one key of a cached first list page: the read model and "On this page" both read by it. */
export function listCacheKey(
  serviceUrl: string,
  operationId: 'listPlaybooks' | 'listPublicPlaybooks',
  visibility: string | undefined,
): string {
  return `${serviceUrl}|${operationId}|${visibility ?? 'all'}`;
}

const reads = keyValueStore('reads');

export function createReadCache(options: ReadCacheOptions = {}): ReadCache {
  const now = options.now ?? Date.now;
  const freshForMs = options.freshForMs ?? DEFAULT_FRESH_FOR_MS;
  const inFlight = new Map<string, Promise<CachedRead<unknown>>>();
  // Bumped by clear(): a revalidation that started before must not write the old service's data back.
  let generation = 0;

  function view<T>(stored: ReadRecord): CachedRead<T> {
    return {
      value: stored.value as T,
      fetchedAt: stored.fetchedAt,
      stale: now() - stored.fetchedAt >= freshForMs,
    };
  }

  async function getEntry<T>(key: string): Promise<CachedRead<T> | undefined> {
    const stored = await get<ReadRecord>(key, reads);
    if (!stored || typeof stored.fetchedAt !== 'number') return undefined;
    return view<T>(stored);
  }

  function revalidate<T>(key: string, loader: () => Promise<T>): Promise<CachedRead<T>> {
    const running = inFlight.get(key);
    if (running) return running as Promise<CachedRead<T>>;
    const startedIn = generation;
    const task = (async () => {
      try {
        const value = await loader();
        const stored: ReadRecord = { value, fetchedAt: now() };
        // Checked in the transaction's callback, with no await before the put: a clear() in between would otherwise be undone.
        await reads('readwrite', (store) =>
          startedIn === generation ? promisifyRequest(store.put(stored, key)) : undefined,
        );
        return view<T>(stored);
      } finally {
        inFlight.delete(key);
      }
    })();
    inFlight.set(key, task);
    return task;
  }

  return {
    get: getEntry,
    revalidate,
    async clear() {
      generation++;
      inFlight.clear();
      await clear(reads);
    },
  };
}
