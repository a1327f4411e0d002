import { useState } from 'preact/hooks';
import { ConfirmDialog, type ConfirmSubmission, type PlaybookFields, type SourceView } from './ConfirmDialog';
import { Disclaimer } from '@/components/Disclaimer';
import { isEditable, needsBrokerage, sentRows } from './describe';
import { bodyEnum } from '@/lib/pages/openapiEnums';
import type { Playbook } from '@/lib/api/schemas';
import { t } from '@/lib/i18n';
import { MessageError, sendMessage } from '@/lib/messaging/client';
import { writeSpec, writeWords } from '@/lib/api/writeOperations';
import { isVisibility } from '@/lib/contract/visibility';
import type { OutboxEntryView, PendingWrite, WriteDraft } from '@/lib/messaging/protocol';
import { playbookPageUrl } from '@/lib/pages/navigation';
import { useAsync } from '@/lib/pages/useAsync';
import { errorText } from '@/lib/pages/errorText';
import { meaningOf, needsReview } from '@/lib/writes/errors';
import { ErrorMessage } from '@/components/ErrorMessage';

interface Loaded {
  pending: PendingWrite;
  /** For an update: the playbook as it is now, so the dialog can show the changes. */
  current?: Partial<PlaybookFields>;
  /** The title of the playbook the write acts on, as it is now: the heading names it. */
  playbookTitle?: string;
  /** Live execution with no brokerage linked: the brokerages the service can link (maybe none known). */
  brokerageMissing?: { providers: string[] };
}

/** The playbook a draft acts on (drafts from earlier versions named it `path.id`). */
function playbookOf(draft: WriteDraft): string | undefined {
  return draft.playbookId ?? draft.path?.id;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function playbookFields(source: Record<string, unknown>): PlaybookFields {
  const visibility = isVisibility(source.visibility) ? source.visibility : 'private';
  return {
    title: text(source.title),
    thesis: text(source.thesis),
    tickers: Array.isArray(source.tickers)
      ? source.tickers.filter((t): t is string => typeof t === 'string')
      : [],
    visibility,
  };
}

/** The page a new playbook came from, all of it as sent: the user sees every word the page supplied. */
function sourceOf(body: Record<string, unknown> | undefined): SourceView | undefined {
  const source = body?.source;
  if (!source || typeof source !== 'object') return undefined;
  const { url, title, excerpt } = source as { url?: unknown; title?: unknown; excerpt?: unknown };
  if (typeof url !== 'string') return undefined;
  return {
    url,
    title: typeof title === 'string' ? title : undefined,
    excerpt: typeof excerpt === 'string' ? excerpt : undefined,
  };
}

/**
 * The playbook as it is now. A write that sends only the changed fields cannot be shown without
 * it (the form would start from blanks and could clear fields the user never touched): its
 * failure is the window's. For any other write it only names the playbook, so it may be missing.
 */
async function playbookNow(playbookId: string, required: boolean): Promise<Playbook | undefined> {
  try {
    return await sendMessage('getPlaybook', { id: playbookId });
  } catch (error) {
    if (!required) return undefined;
    throw new MessageError({
      code: 'playbook.unavailable',
      message: t('confirm.playbookUnavailable', { error: errorText(error) }),
    });
  }
}

/**
 * Whether the account says no brokerage is linked (the account as the worker reads it with
 * getAccount), and which brokerages the service's document lets the user link. Unknown counts as
 * linked: the service still refuses an activation it cannot carry out.
 */
async function brokerageMissing(): Promise<Loaded['brokerageMissing']> {
  const overview = await sendMessage('getOverview', {}).catch(() => undefined);
  if (overview?.account?.brokerage_linked !== false) return undefined;
  const report = await sendMessage('getDiscoveryReport', {}).catch(() => null);
  return { providers: bodyEnum(report?.documents.openapi, 'createBrokerageLink', 'provider') };
}

async function load(draftId: string): Promise<Loaded> {
  const pending = await sendMessage('getPendingWrite', { id: draftId });
  const operation = pending.entry.operationId;
  const playbookId = playbookOf(pending.entry.draft);
  // A write that sends only the changed fields shows them against the playbook as it is now.
  const sendsChanges = writeSpec(operation).editableBody?.sends === 'changed-fields';
  const [playbook, missing] = await Promise.all([
    playbookId && writeSpec(operation).targetsPlaybook ? playbookNow(playbookId, sendsChanges) : undefined,
    needsBrokerage(operation) ? brokerageMissing() : undefined,
  ]);
  return {
    pending,
    current: playbook && sendsChanges ? playbookFields(playbook) : undefined,
    playbookTitle: playbook?.title,
    brokerageMissing: missing,
  };
}

/** The body the user confirms: the whole form for a new playbook, only what changes for an update. */
function editsFor(loaded: Loaded, fields: PlaybookFields | undefined): Record<string, unknown> | undefined {
  const editable = writeSpec(loaded.pending.entry.operationId).editableBody;
  if (!fields || !editable) return undefined;
  if (editable.sends === 'whole-form') return { ...fields };
  const queued = loaded.pending.entry.draft.body ?? {};
  const edits: Record<string, unknown> = {};
  for (const field of ['title', 'thesis', 'tickers', 'visibility'] as const) {
    const was = loaded.current?.[field];
    const changed = JSON.stringify(was) !== JSON.stringify(fields[field]);
    if (field in queued || changed) edits[field] = fields[field];
  }
  return edits;
}

function Done({ entry }: { entry: OutboxEntryView }) {
  const result = (entry.draft as WriteDraft).result;
  const playbookId = result?.playbookId;
  return (
    <main class="confirm-done stack">
      <p role="status">
        {t('confirm.sent')} {writeWords(entry.operationId).successText}
      </p>
      <ErrorMessage message={result?.urlRefused} />
      {playbookId ? (
        <p>
          <a href={playbookPageUrl(playbookId)} target="_blank" rel="noreferrer">
            {t('confirm.openPlaybook')}
          </a>
        </p>
      ) : null}
      <div class="row">
        <button type="button" onClick={() => globalThis.close()}>
          {t('confirm.close')}
        </button>
      </div>
      <Disclaimer />
    </main>
  );
}

/** Nothing was sent and the window must show the draft again (the worker's table says so). */
function needsConfirmation(failure: unknown): boolean {
  return failure instanceof MessageError && needsReview(failure.wire.code);
}

/** The confirm window's controller: loads the pending write, sends the user's confirmation, shows the outcome. */
export function ConfirmPage({ draftId }: { draftId: string }) {
  const loaded = useAsync(() => load(draftId));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>();
  const [sent, setSent] = useState<OutboxEntryView>();
  const [errorCode, setErrorCode] = useState<string>();

  if (!loaded.value) {
    return (
      <main class="confirm-done">
        {loaded.error ? <ErrorMessage message={loaded.error} /> : <p>{t('confirm.loading')}</p>}
      </main>
    );
  }
  const { pending } = loaded.value;
  const { entry } = pending;
  if (sent ?? entry.status === 'sent') return <Done entry={sent ?? entry} />;

  const failed = (failure: unknown) => {
    setBusy(false);
    setError(errorText(failure));
    setErrorCode(failure instanceof MessageError ? failure.wire.code : undefined);
    if (failure instanceof MessageError) setFieldErrors(failure.wire.fields);
    // Nothing was sent and the draft needs confirming again: show how it resolves now (a new token).
    if (needsConfirmation(failure)) loaded.reload();
  };
  const start = () => {
    setBusy(true);
    setError(undefined);
    setErrorCode(undefined);
    setFieldErrors(undefined);
  };
  const send = (request: { body?: Record<string, unknown>; typed?: string }) => {
    start();
    sendMessage('confirmWrite', { id: draftId, token: pending.token, ...request }).then(
      (result) => setSent(result),
      failed,
    );
  };
  // Retry resends the confirmed bytes under the same key, or (when anything changed) the worker
  // refuses it and this window shows the draft again; it never sends anything the window did not show.
  const retry = () => {
    start();
    sendMessage('retryWrite', { id: draftId }).then((result) => {
      if (result.outcome === 'sent') setSent(result.entry);
      else {
        setBusy(false);
        loaded.reload();
      }
    }, failed);
  };
  // Cancel, Escape and the brokerage link leave the window once the worker has done its part.
  const leave = (action: () => Promise<unknown>) => {
    setBusy(true);
    action().then(
      () => globalThis.close(),
      (failure: unknown) => {
        setBusy(false);
        setError(errorText(failure));
      },
    );
  };
  const provider = loaded.value.brokerageMissing?.providers[0];
  const failedEarlier = entry.status === 'failed' && error === undefined;
  const canRetry =
    meaningOf(error !== undefined ? errorCode : entry.error?.code).retryable &&
    (failedEarlier || error !== undefined);

  return (
    <ConfirmDialog
      {...shownDraft(loaded.value)}
      busy={busy}
      error={error ?? entry.error?.message}
      fieldErrors={fieldErrors}
      canRetry={canRetry}
      onConfirm={(submission: ConfirmSubmission) =>
        send({ body: editsFor(loaded.value!, submission.fields), typed: submission.typed })
      }
      onRetry={retry}
      // Cancel (and Escape, the same path) discards the draft unsent; closing the window keeps it waiting.
      onCancel={() => leave(() => sendMessage('discardDraft', { id: draftId }))}
      // The link is a write of its own, in its own window; this draft waits in the popup meanwhile.
      onLinkBrokerage={
        provider === undefined
          ? undefined
          : () =>
              leave(() =>
                sendMessage('requestWrite', { operationId: 'createBrokerageLink', body: { provider } }),
              )
      }
    />
  );
}

/** What the dialog shows of the loaded draft: the write, the playbook it names, what is sent. */
function shownDraft({ pending, current, playbookTitle, brokerageMissing }: Loaded) {
  const { entry } = pending;
  const body = entry.draft.body;
  const editable = isEditable(entry.operationId);
  const playbookId = playbookOf(entry.draft);
  return {
    operation: entry.operationId,
    resolved: pending.resolved,
    refusal: pending.refusal,
    consequence: pending.consequence,
    account: pending.account,
    initial: editable ? playbookFields({ ...current, ...body }) : undefined,
    current,
    playbookTitle,
    body,
    brokerageMissing: brokerageMissing !== undefined,
    rows: editable
      ? sentRows({ playbookId, ifMatch: entry.draft.ifMatch })
      : sentRows({ ...entry.draft, playbookId }),
    source: sourceOf(body),
    typeToConfirm: pending.typeToConfirm,
  };
}
