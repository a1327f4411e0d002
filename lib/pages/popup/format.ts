/** Pure helpers shared by the popup's components: no browser APIs, easy to table-test. */

/** "just now", "5 min ago", "3 h ago", "2 d ago", or the date for anything older than a week. */
export function relativeTime(at: number | string, now: number): string {
  const time = typeof at === 'string' ? Date.parse(at) : at;
  if (!Number.isFinite(time)) return 'unknown time';
  const seconds = Math.round((now - time) / 1000);
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days <= 7) return `${days} d ago`;
  return new Date(time).toISOString().slice(0, 10);
}

/** What the popup shows for a failed read, decided from the wire error's code and details. */
export type ProblemKind = 'no-key' | 'unauthorized' | 'forbidden' | 'offline' | 'rate-limited' | 'other';

export interface ProblemView {
  kind: ProblemKind;
  message: string;
  /** Where the user can fix it (the /apikey page for 401). */
  link?: string;
  /** The service's stable problem code, for 403. */
  code?: string;
  retryAt?: number;
}

export interface WireLike {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

const OFFLINE_KINDS = new Set(['api.network', 'api.timeout', 'api.server', 'internal']);

export function problemOf(error: WireLike): ProblemView {
  const details = error.details ?? {};
  const link = typeof details.link === 'string' ? details.link : undefined;
  const code = typeof details.code === 'string' ? details.code : undefined;
  if (error.code === 'api.unauthorized') {
    // No status: the client refused to send without a key, so this is a first run, not a rejection.
    if (details.status === undefined) return { kind: 'no-key', message: error.message, link };
    return { kind: 'unauthorized', message: error.message, link };
  }
  if (error.code === 'api.forbidden') return { kind: 'forbidden', message: error.message, code };
  if (error.code === 'api.rate-limited' || error.code === 'api.deferred') {
    const retryAt = typeof details.retryAt === 'number' ? details.retryAt : undefined;
    return { kind: 'rate-limited', message: error.message, retryAt };
  }
  if (OFFLINE_KINDS.has(error.code)) return { kind: 'offline', message: error.message };
  return { kind: 'other', message: error.message, code };
}

let clock: Intl.DateTimeFormat | undefined;

/**
 * The locale's hours and minutes, built once. Building it loads the locale's data: about 2 ms in
 * a warm page, tens of ms in a fresh process, where each use after it takes microseconds. The
 * popup builds it while its database answers (lib/pages/popup/start.tsx), not in its first render.
 */
export function clockFormat(): Intl.DateTimeFormat {
  return (clock ??= new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' }));
}

/** Hours and minutes in the user's locale; "unknown time" where toLocaleTimeString said "Invalid Date". */
export function clockTime(at: number): string {
  return Number.isFinite(at) ? clockFormat().format(at) : 'unknown time';
}
