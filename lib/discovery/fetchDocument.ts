/**
 * One discovery document over the network, revalidated against the cache. Discovery requests
 * never carry credentials: no cookies (`credentials: 'omit'`), no Authorization header, no
 * referrer. Bodies are size-bounded while streaming and must be valid UTF-8 (so the cached text
 * re-encodes to exactly the bytes the server sent, which skill digests depend on).
 */
import { t } from '@/lib/i18n';
import { BodyTooLargeError, readBoundedBytes } from '@/lib/http/boundedBody';
import { serviceUrlProblem } from '@/lib/contract/origins';
import { log } from '@/lib/log';
import type { CachedDocument, DocumentCache } from './cache';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export const DEFAULT_MAX_DOCUMENT_BYTES = 1_000_000;
export const DEFAULT_DOCUMENT_TIMEOUT_MS = 15_000;

export interface DocumentFetchDeps {
  fetch: FetchLike;
  now: () => number;
  cache: DocumentCache;
  signal?: AbortSignal;
  maxBytes?: number;
  timeoutMs?: number;
}

export type DocumentStatus = 'ok' | 'not-modified' | 'stale' | 'failed' | 'invalid';

export interface FetchedDocument {
  url: string;
  /** The URL relative references inside the document resolve against (after redirects). */
  baseUrl: string;
  status: DocumentStatus;
  httpStatus?: number;
  source: 'network' | 'cache';
  /** Decoded text; null when nothing usable arrived. */
  body: string | null;
  /** The raw bytes of `body` (for digests). */
  bytes: Uint8Array | null;
  contentType: string;
  size: number;
  error?: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

function fromCache(
  url: string,
  cached: CachedDocument,
  status: DocumentStatus,
  extra: Partial<FetchedDocument>,
): FetchedDocument {
  return {
    url,
    baseUrl: url,
    status,
    source: 'cache',
    body: cached.body,
    bytes: encoder.encode(cached.body),
    contentType: cached.contentType,
    size: cached.size,
    ...extra,
  };
}

function failed(url: string, error: string, extra: Partial<FetchedDocument> = {}): FetchedDocument {
  return {
    url,
    baseUrl: url,
    status: 'failed',
    source: 'network',
    body: null,
    bytes: null,
    contentType: '',
    size: 0,
    error,
    ...extra,
  };
}

function requestSignal(deps: DocumentFetchDeps): AbortSignal {
  const timeout = AbortSignal.timeout(deps.timeoutMs ?? DEFAULT_DOCUMENT_TIMEOUT_MS);
  return deps.signal ? AbortSignal.any([deps.signal, timeout]) : timeout;
}

export const MAX_DOCUMENT_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

type HopAnswer =
  | { response: Response; finalUrl: string }
  | { refused: string; reason: 'insecure-hop' | 'opaque' | 'no-target' | 'too-many' };

/**
 * The GET with every redirect hop judged by the same origin rule as the first URL (https, except
 * loopback), so no hop can deliver a document in the clear. `redirect: 'follow'` would only show
 * the last URL, after the plain-http hop had already been made.
 */
async function fetchHopByHop(
  url: string,
  headers: Headers,
  signal: AbortSignal,
  fetchDocument: FetchLike,
): Promise<HopAnswer> {
  let current = url;
  for (let hop = 0; ; hop++) {
    const response = await fetchDocument(current, {
      method: 'GET',
      headers,
      credentials: 'omit',
      // Our own cache does the revalidation; the HTTP cache must not answer in its place.
      cache: 'no-store',
      redirect: 'manual',
      referrerPolicy: 'no-referrer',
      signal,
    });
    if (response.type === 'opaqueredirect') {
      // A browser hides where a manual redirect points: it cannot be judged, so it is not followed.
      await response.body?.cancel().catch(() => undefined);
      return {
        refused: t('errors.discovery.opaqueRedirect'),
        reason: 'opaque',
      };
    }
    if (!REDIRECT_STATUSES.has(response.status)) {
      // A fetch that followed on its own still answers for the URL it ended at.
      const finalUrl = response.url || current;
      if (serviceUrlProblem(finalUrl) !== undefined)
        return {
          refused: t('errors.discovery.insecureAnswer', { origin: new URL(finalUrl).origin }),
          reason: 'insecure-hop',
        };
      return { response, finalUrl };
    }
    await response.body?.cancel().catch(() => undefined);
    const location = response.headers.get('location');
    let target: URL | undefined;
    try {
      target = location ? new URL(location, current) : undefined;
    } catch {
      target = undefined;
    }
    if (!target)
      return {
        refused: t('errors.discovery.noLocation', { status: String(response.status) }),
        reason: 'no-target',
      };
    if (serviceUrlProblem(target.href) !== undefined)
      return {
        refused: t('errors.discovery.insecureRedirect', { origin: target.origin }),
        reason: 'insecure-hop',
      };
    if (hop >= MAX_DOCUMENT_REDIRECTS)
      return {
        refused: t('errors.discovery.tooManyRedirects', { max: MAX_DOCUMENT_REDIRECTS }),
        reason: 'too-many',
      };
    current = target.href;
  }
}

/** GETs `url` (conditionally when cached) and falls back to the cached copy when offline. */
export async function fetchDiscoveryDocument(
  url: string,
  accept: string,
  deps: DocumentFetchDeps,
): Promise<FetchedDocument> {
  // Plain http only to loopback: a hostile network must not feed discovery.
  if (serviceUrlProblem(url) !== undefined) return failed(url, t('errors.settings.insecure'));
  const cached = await deps.cache.get(url).catch(() => undefined);
  const headers = new Headers({ Accept: accept });
  if (cached?.etag) headers.set('If-None-Match', cached.etag);

  let response: Response;
  let finalUrl: string;
  try {
    const answer = await fetchHopByHop(url, headers, requestSignal(deps), deps.fetch);
    if ('refused' in answer) {
      log.warn('discovery.redirect-refused', { url, reason: answer.reason });
      return failed(url, answer.refused);
    }
    ({ response, finalUrl } = answer);
  } catch (error) {
    if (deps.signal?.aborted) throw error;
    const reason =
      error instanceof Error && error.name === 'TimeoutError'
        ? t('errors.discovery.timedOut')
        : t('errors.discovery.networkError');
    if (cached)
      return fromCache(url, cached, 'stale', { error: t('errors.discovery.fromCache', { reason }) });
    return failed(url, t('errors.discovery.fetchFailed', { reason }));
  }

  if (response.status === 304 && cached) {
    await response.body?.cancel().catch(() => undefined);
    // Only the time moves: the document itself is not written again.
    await deps.cache.touch(url, deps.now()).catch(() => undefined);
    return fromCache(url, cached, 'not-modified', { httpStatus: 304 });
  }

  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    // A struggling server is treated like being offline; a 4xx means the document is gone.
    if (response.status >= 500 && cached) {
      return fromCache(url, cached, 'stale', {
        httpStatus: response.status,
        error: t('errors.discovery.fromCache', {
          reason: t('errors.retry.serverAnswered', { status: String(response.status) }),
        }),
      });
    }
    return failed(url, t('errors.discovery.httpStatus', { status: String(response.status) }), {
      httpStatus: response.status,
    });
  }

  return readDocument(url, finalUrl, response, cached, deps);
}

/**
 * The body of a 2xx answer: read within the byte limit, decoded as strict UTF-8, and written to
 * the cache (or only touched when the same bytes came again).
 */
async function readDocument(
  url: string,
  finalUrl: string,
  response: Response,
  cached: CachedDocument | undefined,
  deps: DocumentFetchDeps,
): Promise<FetchedDocument> {
  const maxBytes = deps.maxBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  const contentType = response.headers.get('content-type') ?? '';
  let bytes: Uint8Array;
  try {
    bytes = await readBoundedBytes(response, maxBytes);
  } catch (error) {
    if (deps.signal?.aborted) throw error;
    if (error instanceof BodyTooLargeError) {
      return {
        ...failed(url, t('errors.discovery.tooLarge', { max: String(maxBytes) })),
        status: 'invalid',
        httpStatus: response.status,
        contentType,
      };
    }
    if (cached)
      return fromCache(url, cached, 'stale', {
        error: t('errors.discovery.fromCache', { reason: t('errors.discovery.brokeOff') }),
      });
    return failed(url, t('errors.discovery.downloadBrokeOff'), { httpStatus: response.status });
  }

  let body: string;
  try {
    body = utf8.decode(bytes);
  } catch {
    return {
      ...failed(url, t('errors.discovery.notUtf8')),
      status: 'invalid',
      httpStatus: response.status,
      contentType,
      size: bytes.byteLength,
    };
  }

  const document: CachedDocument = {
    url,
    etag: response.headers.get('etag'),
    contentType,
    body,
    fetchedAt: deps.now(),
    size: bytes.byteLength,
  };
  // A server without ETags sends the same bytes again: that is a confirmation, not a new document.
  const unchanged =
    cached !== undefined &&
    cached.body === body &&
    cached.etag === document.etag &&
    cached.contentType === contentType &&
    cached.size === document.size;
  await (unchanged ? deps.cache.touch(url, document.fetchedAt) : deps.cache.set(document)).catch(
    () => undefined,
  );
  return {
    url,
    baseUrl: finalUrl,
    status: 'ok',
    httpStatus: response.status,
    source: 'network',
    body,
    bytes,
    contentType,
    size: bytes.byteLength,
  };
}
