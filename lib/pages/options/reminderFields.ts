import {
  DEFAULT_REMINDER_LEAD,
  REMINDER_LEADS,
  type QuietHours,
  type ReminderLead,
} from '@/lib/contract/wire';
import type { TextKey } from '@/lib/i18n';

/** The words of each choice of the select "Catalyst reminders". */
export const LEAD_LABELS: Record<ReminderLead, TextKey> = {
  off: 'options.leadOff',
  'same-day': 'options.leadSameDay',
  '1-day': 'options.lead1Day',
  '3-days': 'options.lead3Days',
  '1-week': 'options.lead1Week',
};

export function leadOf(value: string | undefined): ReminderLead {
  return (REMINDER_LEADS as readonly string[]).includes(value ?? '')
    ? (value as ReminderLead)
    : DEFAULT_REMINDER_LEAD;
}

/** "HH:MM" (an `<input type="time">`'s value) ↔ minutes since midnight. */
export function minutesOf(value: string): number | undefined {
  const match = /^(\d{2}):(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [hours, minutes] = [Number(match[1]), Number(match[2])];
  return hours < 24 && minutes < 60 ? hours * 60 + minutes : undefined;
}

export function timeOf(minutes: number | undefined): string {
  if (minutes === undefined) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/** Quiet hours from the two fields: null when both are empty, undefined when only one is set (an error). */
export function quietHoursOf(start: string, end: string): QuietHours | null | undefined {
  if (start === '' && end === '') return null;
  const [from, to] = [minutesOf(start), minutesOf(end)];
  return from === undefined || to === undefined ? undefined : { start: from, end: to };
}
