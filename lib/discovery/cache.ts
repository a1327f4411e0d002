/**
 * Discovery documents cached in the extension origin's IndexedDB (idb-keyval, its own store),
 * keyed by absolute URL with their ETag, so a run can revalidate with If-None-Match and a
 * browser that is offline still has something to show (marked stale).
 */
import { clear, createStore, del, get, set, type UseStore } from 'idb-keyval';
import { z } from 'zod';

export const DISCOVERY_CACHE_DB = 'playbook-companion-discovery';
export const DISCOVERY_CACHE_STORE = 'documents';

export const CachedDocumentSchema = z.object({
  url: z.string(),
  etag: z.string().nullable(),
  contentType: z.string(),
  body: z.string(),
  fetchedAt: z.number(),
  size: z.number().int().nonnegative(),
});
export type CachedDocument = z.infer<typeof CachedDocumentSchema>;

/** Storage behind the discovery cache; injectable so tests and other callers can swap it. */
export interface DocumentCache {
  get(url: string): Promise<CachedDocument | undefined>;
  set(document: CachedDocument): Promise<void>;
  delete(url: string): Promise<void>;
  clear(): Promise<void>;
}

let store: UseStore | undefined;

// Opened lazily: importing this module must not touch IndexedDB.
function discoveryStore(): UseStore {
  store ??= createStore(DISCOVERY_CACHE_DB, DISCOVERY_CACHE_STORE);
  return store;
}

export const idbDocumentCache: DocumentCache = {
  async get(url) {
    const value: unknown = await get(url, discoveryStore());
    // A record of an older or foreign shape is treated as absent rather than trusted.
    const parsed = CachedDocumentSchema.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  },
  set: (document) => set(document.url, document, discoveryStore()),
  delete: (url) => del(url, discoveryStore()),
  clear: () => clear(discoveryStore()),
};

/** Drops every cached discovery document (called when the service URL changes). */
export async function clearDiscoveryCache(cache: DocumentCache = idbDocumentCache): Promise<void> {
  await cache.clear();
}
