/** Pure helpers shared by the popup's components: no browser APIs but browser.i18n, easy to table-test. */
import { formatClock, formatDate, formatRelative, plural, t, uiLocale } from '@/lib/i18n';
import { meaningOf } from '@/lib/messaging/errors';

const JUST_NOW_MS = 45_000;
const RELATIVE_DAYS = 7;

/**
 * "just now", "5 minutes ago", "3 hours ago", "2 days ago" (Intl.RelativeTimeFormat in the UI
 * language), or the date for anything older than a week.
 */
export function relativeTime(at: number | string, now: number): string {
  const time = typeof at === 'string' ? Date.parse(at) : at;
  if (!Number.isFinite(time)) return t('popup.unknownTime');
  const ago = now - time;
  if (ago < JUST_NOW_MS) return t('popup.justNow');
  // Up to what rounds to a week ("7 days ago" / "last week"), as before; older ones are dated.
  if (ago < (RELATIVE_DAYS + 0.5) * 86_400_000) return formatRelative(time, now);
  return formatDate(time);
}

/**
 * A line that may begin with a relative time ("gerade eben gespeichert") starts with a capital, in
 * the UI language's casing; scripts without case are unchanged.
 */
export function lineStart(text: string): string {
  const first = text.codePointAt(0);
  if (first === undefined) return text;
  const head = String.fromCodePoint(first);
  return head.toLocaleUpperCase(uiLocale()) + text.slice(head.length);
}

/** Whether a service timestamp can be dated at all (a row without one shows no date, not "unknown time"). */
export function isDated(at: string): boolean {
  return Number.isFinite(Date.parse(at));
}

/** About what a row's two title lines hold at 380 px, in widths of a Latin letter (a wide one counts two). */
export const TITLE_ROOM = 52;
/** How much of a long title's end stays in view: where variants of one idea differ ("…, variant 50"). */
const TITLE_END = 18;
const WIDE = /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/u;

const widthOf = (chars: readonly string[]) => chars.reduce((sum, c) => sum + (WIDE.test(c) ? 2 : 1), 0);

/** The most characters from the start (or, `fromEnd`, the end) of `chars` within `room` widths. */
function fit(chars: readonly string[], room: number, fromEnd = false): string[] {
  const taken: string[] = [];
  let used = 0;
  for (const c of fromEnd ? [...chars].reverse() : chars) {
    used += WIDE.test(c) ? 2 : 1;
    if (used > room) break;
    taken.push(c);
  }
  return fromEnd ? taken.reverse() : taken;
}

/**
 * A title too long for a row's two lines, cut in its middle so its start and its end both show:
 * "Grid modernization and transmission … 2030, variant 50" (cut at the end, fifty variants of one
 * idea looked alike). Undefined when the whole title fits; the row keeps the whole one in its
 * accessible name and tooltip.
 */
export function shortTitle(title: string, room = TITLE_ROOM): string | undefined {
  const chars = Array.from(title.replace(/\s+/g, ' ').trim());
  if (widthOf(chars) <= room) return undefined;
  let end = fit(chars, TITLE_END, true).join('');
  // From a word's start where there is one ("variant 50", not "riant 50").
  const space = end.indexOf(' ');
  if (space > 0 && space < end.length - 1) end = end.slice(space + 1);
  const head = fit(chars, room - widthOf(Array.from(end)) - 2);
  // At a word's end where there is one in its second half ("transmission", not "transmi").
  const cut = head.length < chars.length && chars[head.length] !== ' ' ? head.lastIndexOf(' ') : -1;
  const start = (cut > head.length / 2 ? head.slice(0, cut) : head).join('').trimEnd();
  return `${start} … ${end}`;
}

/** What the popup shows for a failed read, decided from the wire error's code and details. */
export type ProblemKind =
  | 'no-key'
  | 'unauthorized'
  | 'forbidden'
  | 'offline'
  | 'service-trouble'
  | 'rate-limited'
  | 'document-refused'
  | 'other';

export interface ProblemView {
  kind: ProblemKind;
  message: string;
  /** Where the user can fix it (the /apikey page for 401). */
  link?: string;
  /** The service's stable problem code, for 403. */
  code?: string;
  /** The HTTP status the service answered: a technical detail, shown only under "Details". */
  status?: number;
  retryAt?: number;
}

export interface WireLike {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

function statusOf(details: Record<string, unknown>): number | undefined {
  return typeof details.status === 'number' ? details.status : undefined;
}

/** How the popup shows a failure: the one table's `problem` for its code (lib/messaging/errors.ts). */
export function problemOf(error: WireLike): ProblemView {
  const details = error.details ?? {};
  const link = typeof details.link === 'string' ? details.link : undefined;
  const code = typeof details.code === 'string' ? details.code : undefined;
  const problem = meaningOf(error.code).problem;
  switch (problem) {
    case 'unauthorized':
      // No status: the client refused to send without a key, so this is a first run, not a rejection.
      if (details.status === undefined) return { kind: 'no-key', message: error.message, link };
      return { kind: 'unauthorized', message: error.message, link, status: statusOf(details) };
    case 'forbidden':
      return { kind: 'forbidden', message: error.message, code };
    case 'rate-limited': {
      const retryAt = typeof details.retryAt === 'number' ? details.retryAt : undefined;
      return { kind: 'rate-limited', message: error.message, retryAt };
    }
    case 'document-refused':
    case 'offline':
    case 'service-trouble':
      return { kind: problem, message: error.message };
    case 'conflict':
    case 'other':
      return { kind: 'other', message: error.message, code };
  }
}

/**
 * Builds the formats the popup's first render uses (the clock, "5 minutes ago", dates, plural
 * rules and numbers), each once per page (lib/i18n caches them). Building one loads the locale's data: about
 * 2 ms in a warm page, tens of ms in a fresh process, where each use after it takes microseconds.
 * The popup builds them while its database answers (lib/pages/popup/start.tsx), not in its first
 * render.
 */
export function warmFormats(): void {
  formatClock(0);
  formatRelative(0, 0);
  formatDate(0);
  plural('popup.list.allShown', 0);
}

/** Hours and minutes in the UI language; "unknown time" for an invalid time. */
export function clockTime(at: number): string {
  return formatClock(at) || t('popup.unknownTime');
}
