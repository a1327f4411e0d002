/** Pure descriptions of a pending write for the confirm dialog: what it is called and what will be sent. */
import type { Visibility } from '@/lib/contract/visibility';
import { planName } from '@/lib/pages/playbookWords';
import { writeSpec, writeWords, type WriteOperation } from '@/lib/api/writeOperations';
import { formatDate, formatList, formatNumber, t, type TextKey } from '@/lib/i18n';

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
  /** An id or a version: the technical record, shown only under "Details". */
  record?: boolean;
}

export interface FieldChange {
  field: keyof PlaybookFields;
  from: string;
  to: string;
}

const FIELD_LABELS: Record<string, TextKey> = {
  start: 'confirm.rows.start',
  end: 'confirm.rows.end',
  benchmark: 'confirm.rows.benchmark',
  plan: 'confirm.rows.plan',
  provider: 'confirm.rows.provider',
};

/** Operations whose body the user edits in the dialog (the table says which). */
export function isEditable(operation: WriteOperation): boolean {
  return writeSpec(operation).editableBody !== undefined;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar day as sent ("2024-12-31") in the UI language ("31.12.2024"); undefined if it is none. */
function localDay(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const [year, month, day] = (DAY.exec(value) ?? []).slice(1).map(Number);
  if (year === undefined) return undefined;
  // Local midnight of that day, so no time zone moves it to the day before.
  const date = new Date(year, month - 1, day);
  // A day that does not exist ("2024-02-30") is never rolled over to another.
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day)
    return undefined;
  return formatDate(date);
}

/**
 * A calendar day in the UI language ("31.12.2024"), once: the day sent is the same day, and the
 * request's own text is under Details. An impossible day is shown as sent, so it cannot pass unseen.
 */
function shownDay(value: string): string {
  return localDay(value) ?? value;
}

function shown(value: unknown): string {
  if (typeof value === 'string') return DAY.test(value) ? shownDay(value) : value;
  if (typeof value === 'number') return formatNumber(value, 6);
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
  if (input.playbookId !== undefined)
    rows.push({ label: t('confirm.rows.playbook'), value: input.playbookId, record: true });
  for (const [name, value] of Object.entries(input.body ?? {})) {
    // Own keys only: a body field named "constructor" is shown by its name.
    const label = Object.prototype.hasOwnProperty.call(FIELD_LABELS, name) ? FIELD_LABELS[name] : undefined;
    rows.push({ label: label ? t(label) : name, value: shown(value) });
  }
  if (input.ifMatch) rows.push({ label: t('confirm.rows.ifMatch'), value: input.ifMatch, record: true });
  return rows;
}

/** Live execution that only a linked brokerage account can carry out. */
export function needsBrokerage(operation: WriteOperation): boolean {
  return operation === 'activatePlaybook';
}

/** What the dialog's heading needs besides the operation: the playbook's title and the body sent. */
export interface SummaryInput {
  /** The playbook's title: a new one's as typed, else the playbook's as it is now. */
  title?: string;
  body?: Record<string, unknown>;
  /** An update: the fields it changes. */
  changed?: readonly (keyof PlaybookFields)[];
}

const CHANGED_FIELD: Record<keyof PlaybookFields, TextKey> = {
  title: 'confirm.summary.field.title',
  thesis: 'confirm.summary.field.thesis',
  tickers: 'confirm.summary.field.tickers',
  visibility: 'confirm.summary.field.visibility',
};

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function backtestSummary(title: string, body: Record<string, unknown>): string {
  const start = localDay(body.start);
  const end = localDay(body.end);
  if (start === undefined || end === undefined) return t('confirm.summary.runBacktest', { title });
  const benchmark = nonEmpty(body.benchmark);
  return benchmark === undefined
    ? t('confirm.summary.runBacktestRange', { title, start, end })
    : t('confirm.summary.runBacktestVersus', { title, start, end, benchmark });
}

/**
 * The action in the user's words, with the playbook's title: "Run a backtest of “Grid
 * modernization”, Jan 4, 2021 – Dec 31, 2024, against SPY". Without what it needs (a title, a
 * plan), the write's own question ("Run a backtest?"): never an id or an operation's name.
 */
export function actionSummary(operation: WriteOperation, input: SummaryInput): string {
  const title = nonEmpty(input.title);
  const body = input.body ?? {};
  const plan = nonEmpty(body.plan);
  const provider = nonEmpty(body.provider);
  const changed = input.changed ?? [];
  if (operation === 'createPlaybook' && title) return t('confirm.summary.createPlaybook', { title });
  if (operation === 'updatePlaybook' && title)
    return changed.length === 0
      ? t('confirm.summary.updatePlaybook', { title })
      : t('confirm.summary.updatePlaybookFields', {
          title,
          fields: formatList(changed.map((field) => t(CHANGED_FIELD[field]))),
        });
  if (operation === 'runBacktest' && title) return backtestSummary(title, body);
  if (operation === 'activatePlaybook' && title) return t('confirm.summary.activatePlaybook', { title });
  if (operation === 'pausePlaybook' && title) return t('confirm.summary.pausePlaybook', { title });
  if (operation === 'createCheckoutSession' && plan)
    return t('confirm.summary.createCheckoutSession', { plan: planName(plan) });
  if (operation === 'createBrokerageLink' && provider)
    return t('confirm.summary.createBrokerageLink', { provider });
  return writeWords(operation).heading;
}

/**
 * The values a heading from actionSummary may hold (the title, the days, the benchmark, the plan,
 * the provider): the heading isolates each, so that on a right-to-left page a Latin title and the
 * date after it do not run into each other.
 */
export function summaryValues(input: SummaryInput): string[] {
  const body = input.body ?? {};
  const plan = nonEmpty(body.plan);
  return [
    nonEmpty(input.title),
    localDay(body.start),
    localDay(body.end),
    nonEmpty(body.benchmark),
    plan === undefined ? undefined : planName(plan),
    nonEmpty(body.provider),
  ].filter((value): value is string => value !== undefined && value !== '');
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
