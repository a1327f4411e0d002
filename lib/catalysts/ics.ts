/**
 * The "Add to calendar" file (CONTRACT.md section 6): an RFC 5545 VCALENDAR with one VEVENT per
 * catalyst. Lines end in CRLF and are folded at 75 octets of UTF-8, never inside a character;
 * TEXT values are escaped (backslash, semicolon, comma, newline) and stripped of other controls.
 * `UID` is `<catalyst id>@<API host>`, stable across saves, and `SEQUENCE` the catalyst's own, so
 * saving again after a date moved updates the same calendar entry. Dates are written in UTC; an
 * all-day catalyst is `VALUE=DATE` with `DTEND` the next day.
 *
 * The input is what the worker already validated; the only origin part used is the API URL's host
 * (never its user-info), so the file names no key or account secret. Time linear in the input.
 */
import type { Catalyst, CatalystStatus } from '@/lib/contract/catalyst';
import { FULL_DATE, isDateTime } from '@/lib/contract/catalyst';

export const CALENDAR_MIME = 'text/calendar;charset=utf-8';
export const PRODID = '-//Playbook Companion//Catalysts//EN';
/** RFC 5545 section 3.1: a content line is at most 75 octets, excluding the CRLF. */
export const MAX_LINE_OCTETS = 75;

const STATUS: Record<CatalystStatus, string> = {
  confirmed: 'CONFIRMED',
  estimated: 'TENTATIVE',
  cancelled: 'CANCELLED',
};

export interface CalendarInput {
  catalysts: readonly Catalyst[];
  /** `servers[0].url` of the service: its host names the UIDs (`<id>@<host>`). */
  apiUrl: string;
  /** The playbook the file is saved from; its title goes into every DESCRIPTION. */
  playbookTitle: string;
  /** DTSTAMP: when the file is made (epoch ms). */
  now: number;
  /**
   * Extra DESCRIPTION lines per catalyst in the user's language (confirmed or estimated, the
   * session), after the playbook's title.
   */
  notes?: (catalyst: Catalyst) => readonly string[];
}

/** RFC 5545 TEXT: escapes `\ ; ,` and newlines; drops the other control characters TEXT excludes. */
export function escapeText(value: string): string {
  return (
    value
      .replace(/\r\n|\r|\n/g, '\n')
      // eslint-disable-next-line no-control-regex -- dropping control characters is the point
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
      .replace(/[\\;,\n]/g, (ch) => (ch === '\n' ? '\\n' : `\\${ch}`))
  );
}

function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  return codePoint < 0x10000 ? 3 : 4;
}

/**
 * One content line folded at MAX_LINE_OCTETS octets: each continuation line starts with a space
 * that counts toward its 75. Splits only between code points, so no UTF-8 sequence is cut.
 */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = utf8Length(ch.codePointAt(0)!);
    if (octets + size > MAX_LINE_OCTETS) {
      parts.push(current);
      current = ' ';
      octets = 1;
    }
    current += ch;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n');
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** An instant as a UTC DATE-TIME (`20260305T212000Z`); sub-seconds are dropped. */
export function utcStamp(ms: number): string {
  const d = new Date(ms);
  return (
    `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`
  );
}

/** A full-date as a DATE value and the day after it (DTEND of an all-day event is exclusive). */
function dateValues(fullDate: string): [string, string] | undefined {
  const match = FULL_DATE.exec(fullDate);
  if (!match) return undefined;
  const next = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + 1));
  const nextValue = `${pad(next.getUTCFullYear(), 4)}${pad(next.getUTCMonth() + 1)}${pad(next.getUTCDate())}`;
  return [`${match[1]}${match[2]}${match[3]}`, nextValue];
}

/** The DTSTART and DTEND lines of a catalyst, or undefined when its `at` is not one of the contract's forms. */
function whenLines(catalyst: Catalyst): string[] | undefined {
  if (catalyst.all_day) {
    const dates = dateValues(catalyst.at);
    return dates && [`DTSTART;VALUE=DATE:${dates[0]}`, `DTEND;VALUE=DATE:${dates[1]}`];
  }
  return isDateTime(catalyst.at) ? [`DTSTART:${utcStamp(Date.parse(catalyst.at))}`] : undefined;
}

/** An http(s) link as a URI value (the URL parser percent-encodes what may not stand in one). */
function uriValue(url: string | undefined): string | undefined {
  if (!url || !URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
}

function eventLines(catalyst: Catalyst, input: CalendarInput, host: string, stamp: string): string[] {
  const when = whenLines(catalyst);
  if (!when) return [];
  const description = [input.playbookTitle, ...(input.notes?.(catalyst) ?? [])];
  const lines = [
    'BEGIN:VEVENT',
    `UID:${escapeText(`${catalyst.id}@${host}`)}`,
    `DTSTAMP:${stamp}`,
    ...when,
    `SEQUENCE:${catalyst.sequence}`,
    `STATUS:${STATUS[catalyst.status]}`,
    `SUMMARY:${escapeText(`${catalyst.ticker}: ${catalyst.title}`)}`,
    `DESCRIPTION:${escapeText(description.join('\n'))}`,
    'TRANSP:TRANSPARENT',
  ];
  const updated = Date.parse(catalyst.updated_at);
  if (isDateTime(catalyst.updated_at)) lines.push(`LAST-MODIFIED:${utcStamp(updated)}`);
  const url = uriValue(catalyst.source_url);
  if (url) lines.push(`URL:${url}`);
  lines.push('END:VEVENT');
  return lines;
}

/** The whole file: CRLF after every folded line, the last one included. */
export function buildCalendar(input: CalendarInput): string {
  const host = new URL(input.apiUrl).host;
  const stamp = utcStamp(input.now);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${PRODID}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(input.playbookTitle)}`,
  ];
  for (const catalyst of input.catalysts) lines.push(...eventLines(catalyst, input, host, stamp));
  lines.push('END:VCALENDAR');
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
