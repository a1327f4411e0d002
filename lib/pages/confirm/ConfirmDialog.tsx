import { Fragment, type ComponentChildren } from 'preact';
import { isolatedMessage, ServiceText } from '@/components/ServiceText';
import { planName } from '@/lib/pages/playbookWords';
import { useEffect, useRef, useState } from 'preact/hooks';
import { writeSpec, type WriteOperation } from '@/lib/api/writeOperations';
import { Disclaimer } from '@/components/Disclaimer';
import {
  actionSummary,
  summaryValues,
  changesFrom,
  formFieldErrors,
  isEditable,
  parseTickers,
  tickersText,
  type FieldChange,
  type PlaybookFields,
  type SentRow,
  type Visibility,
} from './describe';
import { CONFIRM_ARM_DELAY_MS, useArming } from './useArming';
import { ErrorMessage } from '@/components/ErrorMessage';
import { t, type TextKey } from '@/lib/i18n';
import type { ErrorParts } from '@/lib/pages/errorText';
import { ProblemDetails } from '@/components/ProblemMessage';

export type { PlaybookFields, Visibility } from './describe';

/** The page a new playbook came from: every field the page supplied, shown as text. */
export interface SourceView {
  url: string;
  title?: string;
  excerpt?: string;
}

export interface ConfirmSubmission {
  /** The edited fields, for create and update only. */
  fields?: PlaybookFields;
  /** What the user typed, for live execution and billing. */
  typed?: string;
}

/** How the service's document resolves the write: the method and path that will be sent. */
export interface ResolvedView {
  method: string;
  path: string;
  /** The full address, for the Details disclosure. */
  url?: string;
  deprecated?: boolean;
  warnings?: string[];
}

export interface ConfirmDialogProps {
  operation: WriteOperation;
  /** The method and path that will be sent, as resolved when the window opened. */
  resolved?: ResolvedView;
  /** Why this write cannot be sent as the document stands; Confirm stays off. */
  refusal?: string;
  /** How long the window must be visible and focused before Confirm arms (tests pass 0). */
  armDelayMs?: number;
  /** Plain words on what will happen. */
  consequence: string;
  account?: { name: string; email: string; plan: string };
  /** Create and update: the form's starting values. */
  initial?: PlaybookFields;
  /** Update: the playbook as it is now, so the dialog can list what changes. */
  current?: Partial<PlaybookFields>;
  /** Other writes: every path parameter and body field that will be sent. */
  rows?: SentRow[];
  source?: SourceView;
  /** Live execution and billing: the name the user must type before Confirm is enabled. */
  typeToConfirm?: string;
  /** The playbook the write acts on, by its title as it is now (the heading names it). */
  playbookTitle?: string;
  /** The body as queued (a backtest's dates, a plan): the heading says it in words. */
  body?: Record<string, unknown>;
  /**
   * Live execution with no brokerage linked (the account says so): it cannot succeed, so the
   * window says so first, asks nothing to be typed, and offers the link instead of Confirm.
   */
  brokerageMissing?: boolean;
  /** Requests the brokerage link (its own confirm window); absent when no provider is known. */
  onLinkBrokerage?: () => void;
  busy?: boolean;
  /** The last failure in the user's words; its technical record goes under Details. */
  error?: ErrorParts;
  /** Field path → message, from the background or the service. */
  fieldErrors?: Record<string, string>;
  /** The last send failed and the draft is kept: offer a Retry of exactly that request. */
  canRetry?: boolean;
  onConfirm: (submission: ConfirmSubmission) => void;
  onRetry: () => void;
  onCancel: () => void;
}

/** The form's own words for a field the changes list names. */
const FIELD_NAMES: Record<keyof PlaybookFields, TextKey> = {
  title: 'confirm.title',
  thesis: 'confirm.thesis',
  tickers: 'confirm.tickers',
  visibility: 'confirm.visibility',
};

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <span id={id} class="field-error">
      {message}
    </span>
  ) : null;
}

/** Escape answers the dialog as Cancel does (not while an input method is composing, nor while busy). */
function useEscape(onEscape: () => void, enabled: boolean): void {
  const latest = useRef({ onEscape, enabled });
  latest.current = { onEscape, enabled };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.isComposing || event.defaultPrevented) return;
      if (!latest.current.enabled) return;
      event.preventDefault();
      latest.current.onEscape();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

/**
 * The dialog's heading, focused when it opens so a screen reader starts with what is asked. Each of
 * `values` found in it (the title, the days…) is isolated in its own direction; the text is the same.
 */
function Heading({ text, values }: { text: string; values: readonly string[] }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {isolateValues(text, values)}
    </h1>
  );
}

/** `text` with each occurrence of a value (the longest first where two start together) in a <bdi>. */
export function isolateValues(text: string, values: readonly string[]): ComponentChildren[] {
  const sorted = [...new Set(values)].filter(Boolean).sort((a, b) => b.length - a.length);
  const pieces: ComponentChildren[] = [];
  let from = 0;
  while (from < text.length) {
    let at = -1;
    let found = '';
    for (const value of sorted) {
      const index = text.indexOf(value, from);
      if (index >= 0 && (at < 0 || index < at)) [at, found] = [index, value];
    }
    if (at < 0) break;
    if (at > from) pieces.push(text.slice(from, at));
    pieces.push(<ServiceText key={at}>{found}</ServiceText>);
    from = at + found.length;
  }
  if (from < text.length) pieces.push(text.slice(from));
  return pieces;
}

function Rows({ rows }: { rows: SentRow[] }) {
  return (
    <>
      {rows.map((row) => (
        <Fragment key={row.label}>
          <dt>{row.label}</dt>
          <dd>{row.value}</dd>
        </Fragment>
      ))}
    </>
  );
}

/**
 * What the confirmation binds, in a quieter place: the request (method and path) and the account;
 * the technical record (operation, address, ids, the version an edit depends on) behind "Details".
 */
function RequestRecord(
  props: Pick<ConfirmDialogProps, 'operation' | 'resolved' | 'account'> & { records: SentRow[] },
) {
  const { resolved, account } = props;
  return (
    <section class="request" aria-label={t('confirm.requestRegion')}>
      <dl class="sent">
        {resolved ? (
          <>
            <dt>{t('confirm.request')}</dt>
            <dd>
              <code>
                {resolved.method} {resolved.path}
              </code>
            </dd>
          </>
        ) : null}
        <dt>{t('confirm.account')}</dt>
        <dd>
          {account
            ? isolatedMessage(
                t('confirm.accountLine'),
                { name: account.name, email: account.email, plan: planName(account.plan) },
                ['email'],
              )
            : t('confirm.accountUnknown')}
        </dd>
      </dl>
      <details>
        <summary>{t('confirm.details')}</summary>
        <dl class="sent">
          <dt>{t('confirm.operation')}</dt>
          <dd>
            <code>{props.operation}</code>
          </dd>
          {resolved?.url ? (
            <>
              <dt>{t('confirm.address')}</dt>
              <dd>
                <code>{resolved.url}</code>
              </dd>
            </>
          ) : null}
          <Rows rows={props.records} />
        </dl>
      </details>
    </section>
  );
}

interface FormState {
  title: string;
  thesis: string;
  tickers: string;
  visibility: Visibility;
}

function EditForm({
  form,
  set,
  errors,
  source,
}: {
  form: FormState;
  set: (change: Partial<FormState>) => void;
  errors: Record<string, string>;
  source?: SourceView;
}) {
  const invalid = (field: string) =>
    errors[field] ? { 'aria-invalid': true as const, 'aria-describedby': `error-${field}` } : {};
  return (
    <>
      <label>
        {t('confirm.title')}
        <input
          value={form.title}
          maxLength={120}
          onInput={(e) => set({ title: e.currentTarget.value })}
          {...invalid('title')}
        />
        <FieldError id="error-title" message={errors.title} />
      </label>
      <label>
        {t('confirm.thesis')}
        <textarea
          rows={7}
          value={form.thesis}
          maxLength={4000}
          onInput={(e) => set({ thesis: e.currentTarget.value })}
          {...invalid('thesis')}
        />
        <FieldError id="error-thesis" message={errors.thesis} />
      </label>
      <label>
        {t('confirm.tickers')}
        <input
          value={form.tickers}
          onInput={(e) => set({ tickers: e.currentTarget.value })}
          {...invalid('tickers')}
        />
        <FieldError id="error-tickers" message={errors.tickers} />
      </label>
      <label>
        {t('confirm.visibility')}
        <select
          value={form.visibility}
          onChange={(e) => set({ visibility: e.currentTarget.value as Visibility })}
          {...invalid('visibility')}
        >
          <option value="private">{t('confirm.private')}</option>
          <option value="unlisted">{t('confirm.unlisted')}</option>
          <option value="public">{t('confirm.public')}</option>
        </select>
        <FieldError id="error-visibility" message={errors.visibility} />
      </label>
      {source ? <Source source={source} /> : null}
    </>
  );
}

/** Where the draft was captured: the article's headline and the address it came from, as the page sent them. */
function Source({ source }: { source: SourceView }) {
  return (
    <section aria-label={t('confirm.source')} class="source">
      <h2>{t('confirm.sourceHeading')}</h2>
      <dl>
        <dt>{t('confirm.capturedFrom')}</dt>
        <dd>
          {source.title ? <span class="source-headline">{source.title}</span> : null}
          <span class="source-url">{source.url}</span>
        </dd>
        {source.excerpt ? (
          <>
            <dt>{t('confirm.excerpt')}</dt>
            <dd>{source.excerpt}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

function Changes({ changes }: { changes: FieldChange[] }) {
  return (
    <section aria-label={t('confirm.changes')} class="changes">
      <h2>{t('confirm.changes')}</h2>
      {changes.length === 0 ? (
        <p class="hint">{t('confirm.noChanges')}</p>
      ) : (
        <ul>
          {changes.map((change) => (
            <li key={change.field}>
              <strong>{t(FIELD_NAMES[change.field])}</strong>: <del>{change.from || t('confirm.empty')}</del>{' '}
              → <ins>{change.to || t('confirm.empty')}</ins>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Problems({
  error,
  others,
  canRetry,
}: {
  error?: ErrorParts;
  others: [string, string][];
  canRetry?: boolean;
}) {
  if (!error && others.length === 0) return null;
  return (
    <>
      <div role="alert" class="error">
        {error ? <p>{error.message}</p> : null}
        {others.length > 0 ? (
          <ul>
            {others.map(([field, message]) => (
              <li key={field}>
                {field}: {message}
              </li>
            ))}
          </ul>
        ) : null}
        {canRetry ? <p class="hint">{t('confirm.retryHint')}</p> : null}
      </div>
      <ProblemDetails lines={[error?.details]} />
    </>
  );
}

/** The brokerage a live execution needs is not linked: said before anything is asked of the user. */
function BrokerageMissing({ onLink }: { onLink?: () => void }) {
  return (
    <p class="callout blocked" role="note">
      {onLink ? t('confirm.brokerageMissing') : t('confirm.brokerageMissingNoLink')}
    </p>
  );
}

const FORM_FIELDS = ['title', 'thesis', 'tickers', 'visibility', 'typed'];

/**
 * The dialog's form as the user edits it, and what follows from it: the fields it sends, the
 * changes against the playbook as it is, the typed name, and the heading that says it in words.
 */
function useDialogForm(props: ConfirmDialogProps) {
  const { operation, initial, current } = props;
  const [form, setForm] = useState<FormState>({
    title: initial?.title ?? '',
    thesis: initial?.thesis ?? '',
    tickers: tickersText(initial?.tickers ?? []),
    visibility: initial?.visibility ?? 'private',
  });
  const [typed, setTyped] = useState('');
  // Nothing is typed for a write that cannot succeed: the window offers the link instead.
  const typeToConfirm = props.brokerageMissing ? undefined : props.typeToConfirm;
  const fields: PlaybookFields = { ...form, tickers: parseTickers(form.tickers) };
  const changes =
    writeSpec(operation).editableBody?.sends === 'changed-fields' && current
      ? changesFrom(current, fields)
      : undefined;
  const title = operation === 'createPlaybook' ? form.title : (props.playbookTitle ?? current?.title);
  const summary = actionSummary(operation, {
    title,
    body: props.body,
    changed: changes?.map((change) => change.field),
  });
  const values = summaryValues({ title, body: props.body });
  return {
    form,
    set: (change: Partial<FormState>) => setForm((was) => ({ ...was, ...change })),
    typed,
    setTyped,
    typeToConfirm,
    typedOk: typeToConfirm === undefined || typed.trim() === typeToConfirm.trim(),
    fields,
    changes,
    summary,
    summaryValues: values,
  };
}

/** Live execution and billing: the name to type before Confirm is enabled. */
function TypedConfirmation(props: {
  name: string;
  typed: string;
  onTyped: (typed: string) => void;
  error?: string;
}) {
  return (
    <label>
      {t('confirm.typeToConfirm', { name: props.name })}
      <input
        value={props.typed}
        autoComplete="off"
        spellcheck={false}
        onInput={(e) => props.onTyped(e.currentTarget.value)}
        {...(props.error ? { 'aria-invalid': true as const, 'aria-describedby': 'error-typed' } : {})}
      />
      <FieldError id="error-typed" message={props.error} />
    </label>
  );
}

/** What the document warns of this write, and the values it sends that are no technical record. */
function Notes({ warnings, rows }: { warnings: string[]; rows: SentRow[] }) {
  return (
    <>
      {warnings.map((warning) => (
        <p key={warning} class="warn" role="note">
          {warning}
        </p>
      ))}
      {rows.length > 0 ? (
        <dl class="sent">
          <Rows rows={rows} />
        </dl>
      ) : null}
    </>
  );
}

/** Shows exactly what will be sent and to which account; nothing is written until the user presses Confirm. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { operation, initial, busy, resolved, refusal } = props;
  const armed = useArming(
    props.armDelayMs ?? CONFIRM_ARM_DELAY_MS,
    resolved ? `${resolved.method} ${resolved.path}` : '',
  );
  useEscape(props.onCancel, !busy);
  const editable = isEditable(operation) && initial !== undefined;
  const dialog = useDialogForm(props);
  const { typeToConfirm } = dialog;
  const errors = formFieldErrors(props.fieldErrors);
  const rows = props.rows ?? [];

  return (
    <div
      role="dialog"
      aria-label={t('confirm.dialog')}
      aria-modal="true"
      class={`stack confirm${props.typeToConfirm !== undefined ? ' confirm-strong' : ''}`}
    >
      <Heading text={dialog.summary} values={dialog.summaryValues} />
      {/* Without a linked brokerage nothing starts: the note below says so instead of the consequence. */}
      {props.brokerageMissing ? null : <p class="consequence">{props.consequence}</p>}
      {props.brokerageMissing ? <BrokerageMissing onLink={props.onLinkBrokerage} /> : null}
      <ErrorMessage message={refusal} />
      <Notes warnings={resolved?.warnings ?? []} rows={rows.filter((row) => !row.record)} />
      {editable ? (
        <EditForm form={dialog.form} set={dialog.set} errors={errors} source={props.source} />
      ) : null}
      {dialog.changes ? <Changes changes={dialog.changes} /> : null}
      {typeToConfirm !== undefined ? (
        <TypedConfirmation
          name={typeToConfirm}
          typed={dialog.typed}
          onTyped={dialog.setTyped}
          error={errors.typed}
        />
      ) : null}
      <Problems
        error={props.error}
        others={Object.entries(errors).filter(([field]) => !FORM_FIELDS.includes(field))}
        canRetry={props.canRetry}
      />
      <RequestRecord
        operation={operation}
        resolved={resolved}
        account={props.account}
        records={rows.filter((row) => row.record)}
      />
      <Actions
        {...props}
        armed={armed}
        confirmable={dialog.typedOk && !props.brokerageMissing}
        onConfirm={() =>
          props.onConfirm({
            fields: editable ? dialog.fields : undefined,
            typed: typeToConfirm !== undefined ? dialog.typed : undefined,
          })
        }
      />
      {armed || refusal !== undefined || props.brokerageMissing ? null : (
        <p class="hint">{t('confirm.arming')}</p>
      )}
      <Disclaimer />
    </div>
  );
}

/** Pinned to the window's bottom edge: Confirm (or the link a live execution needs first) and Cancel. */
function Actions(
  props: Pick<ConfirmDialogProps, 'busy' | 'refusal' | 'canRetry' | 'onRetry' | 'onCancel'> & {
    armed: boolean;
    confirmable: boolean;
    brokerageMissing?: boolean;
    onLinkBrokerage?: () => void;
    onConfirm: () => void;
  },
) {
  const { busy, armed, refusal } = props;
  return (
    <div class="row confirm-actions">
      {props.canRetry ? (
        <button
          type="button"
          class="primary"
          disabled={busy || !armed || refusal !== undefined}
          onClick={props.onRetry}
        >
          {t('confirm.retry')}
        </button>
      ) : null}
      {props.brokerageMissing ? (
        props.onLinkBrokerage ? (
          <button type="button" class="primary" disabled={busy} onClick={props.onLinkBrokerage}>
            {t('confirm.linkBrokerage')}
          </button>
        ) : null
      ) : (
        <button
          type="button"
          class={props.canRetry ? undefined : 'primary'}
          disabled={busy || !props.confirmable || !armed || refusal !== undefined}
          onClick={props.onConfirm}
        >
          {t('confirm.confirm')}
        </button>
      )}
      <button type="button" disabled={busy} onClick={props.onCancel}>
        {t('confirm.cancel')}
      </button>
    </div>
  );
}
