/**
 * What the service says about deprecated operations in its responses: `Deprecation: @<unix>`
 * (RFC 9745), `Sunset: <HTTP-date>` (RFC 8594) and `Link: <…>; rel="successor-version"`,
 * collected per operation for the UI.
 */
import { parseHttpDate } from './rateLimit';

export interface DeprecationNotice {
  operationId: string;
  /** When the operation was (or will be) deprecated, from the Deprecation header or the document. */
  deprecatedAt?: number;
  /** True when the document or a header marks it deprecated but gives no date. */
  deprecated: boolean;
  sunsetAt?: number;
  successorUrl?: string;
  replacedBy?: string;
  /** Epoch ms of the last response or resolution that said so. */
  lastSeenAt: number;
}

/** RFC 9745: `@<unix seconds>` (a Structured Field date). */
export function parseDeprecationHeader(value: string | null): number | undefined {
  if (value === null) return undefined;
  const match = /^\s*@(-?\d{1,12})\s*$/.exec(value);
  return match ? Number(match[1]) * 1000 : undefined;
}

/** RFC 8594: an HTTP-date. */
export function parseSunsetHeader(value: string | null): number | undefined {
  return value === null ? undefined : parseHttpDate(value);
}

/** The target of the first Link with the given relation, resolved against the request URL. */
export function linkWithRelation(
  value: string | null,
  relation: string,
  baseUrl: string,
): string | undefined {
  if (!value) return undefined;
  for (const match of value.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const params = match[2] ?? '';
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(params);
    const relations = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (!relations.includes(relation)) continue;
    try {
      return new URL(match[1] ?? '', baseUrl).href;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** A notice from response headers, or undefined when the response says nothing about deprecation. */
export function noticeFromHeaders(
  operationId: string,
  headers: Headers,
  requestUrl: string,
  now: number,
): DeprecationNotice | undefined {
  const deprecationHeader = headers.get('deprecation');
  const sunsetHeader = headers.get('sunset');
  if (deprecationHeader === null && sunsetHeader === null) return undefined;
  return {
    operationId,
    deprecated: deprecationHeader !== null,
    deprecatedAt: parseDeprecationHeader(deprecationHeader),
    sunsetAt: parseSunsetHeader(sunsetHeader),
    successorUrl: linkWithRelation(headers.get('link'), 'successor-version', requestUrl),
    lastSeenAt: now,
  };
}

/** Keeps one notice per operation, newer facts over older ones. */
export class DeprecationRecord {
  private readonly notices = new Map<string, DeprecationNotice>();

  record(notice: DeprecationNotice): boolean {
    const previous = this.notices.get(notice.operationId);
    const merged: DeprecationNotice = {
      operationId: notice.operationId,
      deprecated: notice.deprecated || (previous?.deprecated ?? false),
      deprecatedAt: notice.deprecatedAt ?? previous?.deprecatedAt,
      sunsetAt: notice.sunsetAt ?? previous?.sunsetAt,
      successorUrl: notice.successorUrl ?? previous?.successorUrl,
      replacedBy: notice.replacedBy ?? previous?.replacedBy,
      lastSeenAt: notice.lastSeenAt,
    };
    this.notices.set(notice.operationId, merged);
    return previous === undefined;
  }

  list(): DeprecationNotice[] {
    return [...this.notices.values()].map((notice) => ({ ...notice }));
  }
}
