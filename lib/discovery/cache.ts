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
  get(url: string): Promise<CachedDocument | undefined>;
  set(document: CachedDocument): Promise<void>;
  clear(): Promise<void>;
}

export const idbDocumentCache: DocumentCache = {
  async get(url) {
    const value = await (await database()).get('discovery', url);
    // A record of an older or foreign shape is treated as absent rather than trusted.
    const parsed = CachedDocumentSchema.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  },
  async set(document) {
    await (await database()).put('discovery', document, document.url);
  },
  async clear() {
    await (await database()).clear('discovery');
  },
};

/** Drops every cached discovery document (called when the service URL changes). */
export async function clearDiscoveryCache(cache: DocumentCache = idbDocumentCache): Promise<void> {
  await cache.clear();
}
