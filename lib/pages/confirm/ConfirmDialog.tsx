import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { writeSpec, writeWords, type WriteOperation } from '@/lib/api/writeOperations';
import { Disclaimer } from '@/components/Disclaimer';
import {
  changesFrom,
  formFieldErrors,
  isEditable,
  parseTickers,
  tickersText,
  type PlaybookFields,
  type SentRow,
  type Visibility,
} from './describe';
import { CONFIRM_ARM_DELAY_MS, useArming } from './useArming';
import { ErrorMessage } from '@/components/ErrorMessage';
import { t, type TextKey } from '@/lib/i18n';

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
  busy?: boolean;
  error?: string;
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

/** Shows exactly what will be sent and to which account; nothing is written until the user presses Confirm. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { operation, initial, current, typeToConfirm, busy, resolved, refusal } = props;
  const armed = useArming(
    props.armDelayMs ?? CONFIRM_ARM_DELAY_MS,
    resolved ? `${resolved.method} ${resolved.path}` : '',
  );
  const editable = isEditable(operation) && initial !== undefined;
  const [title, setTitle] = useState(initial?.title ?? '');
  const [thesis, setThesis] = useState(initial?.thesis ?? '');
  const [tickers, setTickers] = useState(tickersText(initial?.tickers ?? []));
  const [visibility, setVisibility] = useState<Visibility>(initial?.visibility ?? 'private');
  const [typed, setTyped] = useState('');
  const errors = formFieldErrors(props.fieldErrors);
  const fields: PlaybookFields = { title, thesis, tickers: parseTickers(tickers), visibility };
  const changes =
    writeSpec(operation).editableBody?.sends === 'changed-fields' && current
      ? changesFrom(current, fields)
      : undefined;
  const typedOk = typeToConfirm === undefined || typed.trim() === typeToConfirm.trim();
  const otherErrors = Object.entries(errors).filter(
    ([field]) => !['title', 'thesis', 'tickers', 'visibility', 'typed'].includes(field),
  );
  const invalid = (field: string) => (errors[field] ? { 'aria-invalid': true as const } : {});
  const describedBy = (field: string) => (errors[field] ? { 'aria-describedby': `error-${field}` } : {});

  return (
    <div
      role="dialog"
      aria-label={t('confirm.dialog')}
      aria-modal="true"
      class={`stack confirm${typeToConfirm !== undefined ? ' confirm-strong' : ''}`}
    >
      <h1>{writeWords(operation).heading}</h1>
      <p class="consequence">{props.consequence}</p>
      <ErrorMessage message={refusal} />
      {(resolved?.warnings ?? []).map((warning) => (
        <p key={warning} class="warn" role="note">
          {warning}
        </p>
      ))}
      <dl class="sent">
        <dt>{t('confirm.operation')}</dt>
        <dd>
          <code>{operation}</code>
        </dd>
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
        <dd>{props.account ? t('confirm.accountLine', props.account) : t('confirm.accountUnknown')}</dd>
        {(props.rows ?? []).map((row) => (
          <Fragment key={row.label}>
            <dt>{row.label}</dt>
            <dd>{row.value}</dd>
          </Fragment>
        ))}
      </dl>
      {editable ? (
        <>
          <label>
            {t('confirm.title')}
            <input
              value={title}
              maxLength={120}
              onInput={(e) => setTitle(e.currentTarget.value)}
              {...invalid('title')}
              {...describedBy('title')}
            />
            <FieldError id="error-title" message={errors.title} />
          </label>
          <label>
            {t('confirm.thesis')}
            <textarea
              rows={7}
              value={thesis}
              maxLength={4000}
              onInput={(e) => setThesis(e.currentTarget.value)}
              {...invalid('thesis')}
              {...describedBy('thesis')}
            />
            <FieldError id="error-thesis" message={errors.thesis} />
          </label>
          <label>
            {t('confirm.tickers')}
            <input
              value={tickers}
              onInput={(e) => setTickers(e.currentTarget.value)}
              {...invalid('tickers')}
              {...describedBy('tickers')}
            />
            <FieldError id="error-tickers" message={errors.tickers} />
          </label>
          <label>
            {t('confirm.visibility')}
            <select
              value={visibility}
              onChange={(e) => setVisibility(e.currentTarget.value as Visibility)}
              {...invalid('visibility')}
              {...describedBy('visibility')}
            >
              <option value="private">{t('confirm.private')}</option>
              <option value="unlisted">{t('confirm.unlisted')}</option>
              <option value="public">{t('confirm.public')}</option>
            </select>
            <FieldError id="error-visibility" message={errors.visibility} />
          </label>
          {props.source ? (
            <section aria-label={t('confirm.source')} class="source">
              <h2>{t('confirm.sourceHeading')}</h2>
              <dl>
                <dt>{t('confirm.page')}</dt>
                <dd>{props.source.url}</dd>
                {props.source.title ? (
                  <>
                    <dt>{t('confirm.title')}</dt>
                    <dd>{props.source.title}</dd>
                  </>
                ) : null}
                {props.source.excerpt ? (
                  <>
                    <dt>{t('confirm.excerpt')}</dt>
                    <dd>{props.source.excerpt}</dd>
                  </>
                ) : null}
              </dl>
            </section>
          ) : null}
        </>
      ) : null}
      {changes ? (
        <section aria-label={t('confirm.changes')} class="changes">
          <h2>{t('confirm.changes')}</h2>
          {changes.length === 0 ? (
            <p class="hint">{t('confirm.noChanges')}</p>
          ) : (
            <ul>
              {changes.map((change) => (
                <li key={change.field}>
                  <strong>{t(FIELD_NAMES[change.field])}</strong>:{' '}
                  <del>{change.from || t('confirm.empty')}</del> →{' '}
                  <ins>{change.to || t('confirm.empty')}</ins>
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
      {typeToConfirm !== undefined ? (
        <label>
          {t('confirm.typeToConfirm', { name: typeToConfirm })}
          <input
            value={typed}
            autoComplete="off"
            spellcheck={false}
            onInput={(e) => setTyped(e.currentTarget.value)}
            {...invalid('typed')}
            {...describedBy('typed')}
          />
          <FieldError id="error-typed" message={errors.typed} />
        </label>
      ) : null}
      {props.error || otherErrors.length > 0 ? (
        <div role="alert" class="error">
          {props.error ? <p>{props.error}</p> : null}
          {otherErrors.length > 0 ? (
            <ul>
              {otherErrors.map(([field, message]) => (
                <li key={field}>
                  {field}: {message}
                </li>
              ))}
            </ul>
          ) : null}
          {props.canRetry ? <p class="hint">{t('confirm.retryHint')}</p> : null}
        </div>
      ) : null}
      {/* Pinned to the window's bottom edge: Confirm and Cancel are on screen however long the draft. */}
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
        <button
          type="button"
          class={props.canRetry ? undefined : 'primary'}
          disabled={busy || !typedOk || !armed || refusal !== undefined}
          onClick={() =>
            props.onConfirm({
              fields: editable ? fields : undefined,
              typed: typeToConfirm !== undefined ? typed : undefined,
            })
          }
        >
          {t('confirm.confirm')}
        </button>
        <button type="button" disabled={busy} onClick={props.onCancel}>
          {t('confirm.cancel')}
        </button>
      </div>
      {armed || refusal !== undefined ? null : <p class="hint">{t('confirm.arming')}</p>}
      <Disclaimer />
    </div>
  );
}
