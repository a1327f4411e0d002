/**
 * What the service says about deprecated operations in its responses: `Deprecation: @<unix>`
 * (RFC 9745), `Sunset: <HTTP-date>` (RFC 8594) and `Link: <…>; rel="successor-version"`,
 * collected per operation for the UI.
 */
import { parseHttpDate } from './rateLimit';
import type { DeprecationNotice } from '@/lib/contract/api';

export type { DeprecationNotice } from '@/lib/contract/api';

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

/** Longer Link headers are ignored: no service needs more to name a successor. */
export const MAX_LINK_HEADER_LENGTH = 8_192;

export interface LinkValue {
  target: string;
  /** Parameter names lower-cased, values unquoted. */
  params: Record<string, string>;
}

/**
 * RFC 8288 `Link` values in one forward scan (quotes and `<…>` respected), so no input can make
 * it backtrack; the regex it replaces searched for `>` again from every `<` (quadratic).
 */
export function parseLinkHeader(value: string | null): LinkValue[] {
  if (!value || value.length > MAX_LINK_HEADER_LENGTH) return [];
  const links: LinkValue[] = [];
  let i = 0;
  const skipBlanks = () => {
    while (i < value.length && (value[i] === ' ' || value[i] === '\t')) i += 1;
  };
  // Reads a token or a quoted string up to one of `stops`.
  const readValue = (stops: string): string => {
    skipBlanks();
    if (value[i] === '"') {
      let text = '';
      i += 1;
      while (i < value.length && value[i] !== '"') {
        if (value[i] === '\\' && i + 1 < value.length) i += 1;
        text += value[i];
        i += 1;
      }
      i += 1;
      return text;
    }
    const start = i;
    while (i < value.length && !stops.includes(value[i] ?? '')) i += 1;
    return value.slice(start, i).trim();
  };
  while (i < value.length) {
    skipBlanks();
    if (value[i] !== '<') {
      // Not a link value: skip to the next top-level comma.
      while (i < value.length && value[i] !== ',') i += 1;
      i += 1;
      continue;
    }
    const close = value.indexOf('>', i + 1);
    if (close < 0) break;
    const link: LinkValue = { target: value.slice(i + 1, close), params: {} };
    i = close + 1;
    for (;;) {
      skipBlanks();
      if (value[i] !== ';') break;
      i += 1;
      const name = readValue('=;,').toLowerCase();
      let param = '';
      if (value[i] === '=') {
        i += 1;
        param = readValue(';,');
      }
      if (name && !Object.hasOwn(link.params, name)) link.params[name] = param;
    }
    links.push(link);
    while (i < value.length && value[i] !== ',') i += 1;
    i += 1;
  }
  return links;
}

/** The target of the first Link with the given relation, resolved against the request URL. */
export function linkWithRelation(
  value: string | null,
  relation: string,
  baseUrl: string,
): string | undefined {
  for (const link of parseLinkHeader(value)) {
    const relations = (link.params.rel ?? '').toLowerCase().split(/\s+/);
    if (!relations.includes(relation)) continue;
    try {
      return new URL(link.target, baseUrl).href;
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
