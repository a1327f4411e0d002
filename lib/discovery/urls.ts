/**
 * URL rules for everything discovery documents point at: references may be relative (resolved
 * against the document that holds them) and only web schemes survive, so a `javascript:` or
 * `data:` link can never reach a rendered page.
 */
import { t } from '@/lib/i18n';

const MAX_URL_LENGTH = 4096;
const WEB_SCHEMES = new Set(['http:', 'https:']);

/** Resolves `reference` against `documentUrl`; null unless the result is an http(s) URL. */
export function resolveWebUrl(reference: string, documentUrl: string): string | null {
  const resolved = resolveAny(reference, documentUrl);
  return resolved && WEB_SCHEMES.has(resolved.protocol) ? resolved.href : null;
}

/** Like resolveWebUrl, but also keeps `mailto:` (the only other scheme a rendered link may use). */
export function resolveLinkHref(reference: string, documentUrl: string): string | null {
  const resolved = resolveAny(reference, documentUrl);
  if (!resolved) return null;
  if (WEB_SCHEMES.has(resolved.protocol) || resolved.protocol === 'mailto:') return resolved.href;
  return null;
}

function resolveAny(reference: string, documentUrl: string): URL | null {
  // Control characters and whitespace are stripped by URL parsing, which is how `java\tscript:` sneaks past naive checks.
  const trimmed = reference.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_URL_LENGTH) return null;
  try {
    return new URL(trimmed, documentUrl);
  } catch {
    return null;
  }
}

/** The service's base URL, checked and without a trailing slash, query or fragment. */
export function normalizeBaseUrl(baseUrl: string): string {
  let parsed: URL;
  try {
    parsed = new URL(baseUrl.trim());
  } catch {
    throw new TypeError(t('errors.discovery.serviceUrlInvalid'));
  }
  if (!WEB_SCHEMES.has(parsed.protocol)) throw new TypeError(t('errors.discovery.serviceUrlScheme'));
  if (parsed.username || parsed.password) throw new TypeError(t('errors.discovery.serviceUrlCredentials'));
  parsed.search = '';
  parsed.hash = '';
  let end = parsed.href.length;
  // Trailing slashes trimmed by a scan: `/\/+$/` retries from every slash of a long run.
  while (end > 0 && parsed.href[end - 1] === '/') end -= 1;
  return parsed.href.slice(0, end);
}

/** A contract path (`/llms.txt`) under the base URL, keeping any path prefix the base URL has. */
export function documentUrlFor(baseUrl: string, path: string): string {
  return `${normalizeBaseUrl(baseUrl)}${path.startsWith('/') ? path : `/${path}`}`;
}
