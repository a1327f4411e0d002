/** Pure descriptions of a pending write for the confirm dialog: what it is called and what will be sent. */
import type { Visibility } from '@/lib/api/visibility';
import { writeSpec, type WriteOperation } from '@/lib/api/writeOperations';

export type { Visibility };

export interface PlaybookFields {
  title: string;
  thesis: string;
  tickers: string[];
  visibility: Visibility;
}

export interface SentRow {
  label: string;
  value: string;
}

export interface FieldChange {
  field: keyof PlaybookFields;
  from: string;
  to: string;
}

const FIELD_LABELS: Record<string, string> = {
  start: 'Start date',
  end: 'End date',
  benchmark: 'Benchmark',
  plan: 'Plan',
  provider: 'Brokerage',
};

/** Operations whose body the user edits in the dialog (the table says which). */
export function isEditable(operation: WriteOperation): boolean {
  return writeSpec(operation).editableBody !== undefined;
}

function shown(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value);
}

/** Every path parameter and body field of a non-editable write, as labelled rows of plain text. */
export function sentRows(input: {
  playbookId?: string;
  body?: Record<string, unknown>;
  ifMatch?: string;
}): SentRow[] {
  const rows: SentRow[] = [];
  if (input.playbookId !== undefined) rows.push({ label: 'Playbook', value: input.playbookId });
  for (const [name, value] of Object.entries(input.body ?? {}))
    rows.push({ label: FIELD_LABELS[name] ?? name, value: shown(value) });
  if (input.ifMatch) rows.push({ label: 'Only if unchanged since version', value: input.ifMatch });
  return rows;
}

export function tickersText(tickers: readonly string[]): string {
  return tickers.join(', ');
}

export function parseTickers(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((ticker) => ticker.trim().toUpperCase())
    .filter(Boolean);
}

function fieldText(fields: Partial<PlaybookFields>, field: keyof PlaybookFields): string {
  const value = fields[field];
  return Array.isArray(value) ? tickersText(value) : (value ?? '');
}

/** What an update changes: each field whose new value differs from the playbook as it is now. */
export function changesFrom(current: Partial<PlaybookFields>, next: PlaybookFields): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of ['title', 'thesis', 'tickers', 'visibility'] as const) {
    const from = fieldText(current, field);
    const to = fieldText(next, field);
    if (from !== to) changes.push({ field, from, to });
  }
  return changes;
}

/**
 * Field errors keyed as the form knows them: `title`, `tickers`, `typed`… from either the
 * background's zod paths (`tickers.0`) or the API's JSON pointers (`/tickers/0`).
 */
export function formFieldErrors(fields: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(fields ?? {})) {
    const field = path.replace(/^\//, '').split(/[./]/)[0] || 'body';
    out[field] ??= message;
  }
  return out;
}
