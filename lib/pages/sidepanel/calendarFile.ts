/**
 * "Add to calendar": the .ics built in the page (lib/catalysts/ics.ts) from the catalysts the worker
 * validated, saved as a Blob download. Only the API origin's host names the UIDs; the file holds
 * no key or account secret.
 */
import { buildCalendar, CALENDAR_MIME } from '@/lib/catalysts/ics';
import type { Catalyst } from '@/lib/contract/catalyst';
import { t } from '@/lib/i18n';
import { catalystStatusText, catalystSessionText } from './CatalystsSection';

const MAX_FILE_STEM = 60;

/** Drops spaces and dashes at both ends, in linear time. */
function trimEdges(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && ' -'.includes(value[start])) start++;
  while (end > start && ' -'.includes(value[end - 1])) end--;
  return value.slice(start, end);
}

/** A file name from a playbook's title: letters, digits, `-` and `_` kept, any other run one space. */
export function calendarFileName(title: string): string {
  const stem = title.normalize('NFC').replace(/[^\p{L}\p{N}_-]+/gu, ' ');
  const short = trimEdges([...stem].slice(0, MAX_FILE_STEM).join(''));
  return `${short || 'catalysts'}.ics`;
}

/** The DESCRIPTION lines after the title: confirmed or estimated, and the session, in the UI language. */
function notes(catalyst: Catalyst): string[] {
  const session = catalystSessionText(catalyst.session);
  return session ? [catalystStatusText(catalyst.status), session] : [catalystStatusText(catalyst.status)];
}

export function calendarText(catalysts: readonly Catalyst[], apiOrigin: string, title: string, now: number) {
  return buildCalendar({ catalysts, apiUrl: apiOrigin, playbookTitle: title, now, notes });
}

/** Saves the file through an `<a download>` with an object URL, released once the click is handled. */
export function saveCalendar(catalysts: readonly Catalyst[], apiOrigin: string, title: string): string {
  const name = calendarFileName(title);
  const blob = new Blob([calendarText(catalysts, apiOrigin, title, Date.now())], { type: CALENDAR_MIME });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
  return t('catalystList.saved', { name });
}
