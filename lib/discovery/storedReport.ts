/**
 * The discovery report as the worker stores it between runs: the parsed OpenAPI document (about
 * two thirds of the report) is not stored again, since the discovery cache holds the same bytes
 * under its URL; the stored report names it, and reading the report back parses it from there.
 * Every byte written is replayed when Chromium next reopens the database, and a run
 * stores the report every time.
 */
import { idbDocumentCache, type DocumentCache } from './cache';
import type { DiscoveryReport } from './report';

/** The cached document the report's `documents.openapi` was parsed from, and a check that it is the same one. */
export interface OpenApiReference {
  url: string;
  size: number;
  /** FNV-1a of the cached text: a document replaced since the run is not taken for the run's. */
  hash: string;
}

export type StoredDiscoveryReport = DiscoveryReport & { openapiFrom?: OpenApiReference };

/** FNV-1a (32 bits) over UTF-16 code units: a consistency check, not a security one. */
export function textHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return `${text.length}:${(hash >>> 0).toString(16)}`;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** What to store for `report`: without the OpenAPI document when the cache holds exactly it. */
export async function storableReport(
  report: DiscoveryReport,
  cache: DocumentCache = idbDocumentCache,
): Promise<StoredDiscoveryReport> {
  const { openapi } = report.documents;
  const url = report.steps.find((step) => step.id === 'openapi')?.url;
  if (openapi === undefined || url === undefined) return report;
  const cached = await cache.get(url).catch(() => undefined);
  // The run's document came from (or went into) the cache; a failed cache write leaves it inline.
  if (!cached || JSON.stringify(parsed(cached.body)) !== JSON.stringify(openapi)) return report;
  const documents = { ...report.documents };
  delete documents.openapi;
  return { ...report, documents, openapiFrom: { url, size: cached.size, hash: textHash(cached.body) } };
}

/**
 * The report as the run made it. Should the cached document have been replaced since (a newer
 * one fetched between runs), the report has no OpenAPI document, as a run that could not read one.
 */
export async function restoredReport(
  stored: StoredDiscoveryReport,
  cache: DocumentCache = idbDocumentCache,
): Promise<DiscoveryReport> {
  const { openapiFrom, ...report } = stored;
  if (!openapiFrom || typeof report.documents !== 'object' || report.documents === null) return report;
  const cached = await cache.get(openapiFrom.url).catch(() => undefined);
  if (!cached || cached.size !== openapiFrom.size || textHash(cached.body) !== openapiFrom.hash)
    return report;
  const openapi = parsed(cached.body);
  return openapi === undefined ? report : { ...report, documents: { ...report.documents, openapi } };
}
