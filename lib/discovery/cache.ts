/**
 * Discovery documents cached in the extension's database (the `discovery` store),
 * keyed by absolute URL with their ETag, so a run can revalidate with If-None-Match and a
 * browser that is offline still has something to show (marked stale).
 */
import { z } from 'zod';
import { database } from '@/lib/store/db';

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
  /** The document with `fetchedAt` the later of its own and its last `touch`. */
  get(url: string): Promise<CachedDocument | undefined>;
  set(document: CachedDocument): Promise<void>;
  /**
   * The server confirmed the cached copy (a 304, or the same bytes again) at `fetchedAt`: only
   * that time is written, in a record of its own, never the document again (every write
   * is replayed when Chromium next reopens the database; openapi.json alone is ~200 KB stored).
   */
  touch(url: string, fetchedAt: number): Promise<void>;
  clear(): Promise<void>;
}

/** Where a document's last confirmation time is kept, beside it: no URL contains a space. */
export function checkedKey(url: string): string {
  return `checked ${url}`;
}

export const idbDocumentCache: DocumentCache = {
  async get(url) {
    const transaction = (await database()).transaction('discovery');
    const [value, checked] = await Promise.all([
      transaction.store.get(url),
      transaction.store.get(checkedKey(url)),
      transaction.done,
    ]);
    // A record of an older or foreign shape is treated as absent rather than trusted.
    const parsed = CachedDocumentSchema.safeParse(value);
    if (!parsed.success) return undefined;
    return typeof checked === 'number' && checked > parsed.data.fetchedAt
      ? { ...parsed.data, fetchedAt: checked }
      : parsed.data;
  },
  async set(document) {
    await (await database()).put('discovery', document, document.url);
  },
  async touch(url, fetchedAt) {
    await (await database()).put('discovery', fetchedAt, checkedKey(url));
  },
  async clear() {
    await (await database()).clear('discovery');
  },
};

/** Drops every cached discovery document (called when the service URL changes). */
export async function clearDiscoveryCache(cache: DocumentCache = idbDocumentCache): Promise<void> {
  await cache.clear();
}
