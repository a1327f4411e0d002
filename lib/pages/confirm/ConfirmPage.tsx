import { useState } from 'preact/hooks';
import { ConfirmDialog, type ConfirmSubmission, type PlaybookFields, type SourceView } from './ConfirmDialog';
import { Disclaimer } from '@/components/Disclaimer';
import { isEditable, sentRows } from './describe';
import { MessageError, sendMessage } from '@/lib/messaging/client';
import { writeSpec } from '@/lib/api/writeOperations';
import { isVisibility } from '@/lib/api/visibility';
import type { OutboxEntryView, PendingWrite, WriteDraft } from '@/lib/messaging/protocol';
import { playbookPageUrl } from '@/lib/pages/navigation';
import { useAsync } from '@/lib/pages/useAsync';
import { errorText } from '@/lib/pages/errorText';
import { ErrorMessage } from '@/components/ErrorMessage';

interface Loaded {
  pending: PendingWrite;
  /** For an update: the playbook as it is now, so the dialog can show the changes. */
  current?: Partial<PlaybookFields>;
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

async function load(draftId: string): Promise<Loaded> {
  const pending = await sendMessage('getPendingWrite', { id: draftId });
  const playbookId = playbookOf(pending.entry.draft);
  if (pending.entry.operationId !== 'updatePlaybook' || !playbookId) return { pending };
  try {
    const playbook = await sendMessage('getPlaybook', { id: playbookId });
    return { pending, current: playbookFields(playbook) };
  } catch (error) {
    // Without the playbook as it is now, the form would start from blanks and an update could
    // clear fields the user never touched: show the failure instead of the form.
    throw new MessageError({
      code: 'playbook-unavailable',
      message: `The playbook could not be read, so this change cannot be shown safely: ${errorText(error)} Close this window and try again.`,
    });
  }
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
        Sent. {entry.operationId === 'createPlaybook' ? 'Your playbook was created as a draft.' : ''}
      </p>
      <ErrorMessage message={result?.urlRefused} />
      {playbookId ? (
        <p>
          <a href={playbookPageUrl(playbookId)} target="_blank" rel="noreferrer">
            Open the playbook
          </a>
        </p>
      ) : null}
      <div class="row">
        <button type="button" onClick={() => globalThis.close()}>
          Close
        </button>
      </div>
      <Disclaimer />
    </main>
  );
}

function needsConfirmation(failure: unknown): boolean {
  if (!(failure instanceof MessageError)) return false;
  return failure.wire.code === 'operation-changed' || failure.wire.code === 'api.unconfirmed-write';
}

/** The confirm window's controller: loads the pending write, sends the user's confirmation, shows the outcome. */
export function ConfirmPage({ draftId }: { draftId: string }) {
  const loaded = useAsync(() => load(draftId));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>();
  const [sent, setSent] = useState<OutboxEntryView>();
  const [lastRequest, setLastRequest] = useState<{ body?: Record<string, unknown>; typed?: string }>();

  if (!loaded.value) {
    return (
      <main class="confirm-done">
        {loaded.error ? <ErrorMessage message={loaded.error} /> : <p>Loading the draft…</p>}
      </main>
    );
  }
  const { pending, current } = loaded.value;
  const { entry } = pending;
  if (sent ?? entry.status === 'sent') return <Done entry={sent ?? entry} />;

  const send = (request: { body?: Record<string, unknown>; typed?: string }) => {
    setBusy(true);
    setError(undefined);
    setFieldErrors(undefined);
    setLastRequest(request);
    sendMessage('confirmWrite', { id: draftId, ...request }).then(
      (result) => setSent(result),
      (failure: unknown) => {
        setBusy(false);
        setError(errorText(failure));
        if (failure instanceof MessageError) setFieldErrors(failure.wire.fields);
        // Nothing was sent and the draft needs confirming again: show how it resolves now.
        if (needsConfirmation(failure)) {
          setLastRequest(undefined);
          loaded.reload();
        }
      },
    );
  };
  // A request that reached the service (or was cut off) is kept for Retry; a refused form is not.
  // Retry from a reopened failed draft resends the stored body; a typed name must be typed again (Confirm).
  const failedEarlier = entry.status === 'failed' && lastRequest === undefined;
  const mustReconfirm = entry.error?.code === 'operation-changed';
  const canRetry =
    !mustReconfirm &&
    ((failedEarlier && pending.typeToConfirm === undefined) ||
      (error !== undefined && lastRequest !== undefined && fieldErrors === undefined));
  const body = entry.draft.body;

  return (
    <ConfirmDialog
      operation={entry.operationId}
      resolved={pending.resolved}
      refusal={pending.refusal}
      consequence={pending.consequence}
      account={pending.account}
      initial={isEditable(entry.operationId) ? playbookFields({ ...current, ...body }) : undefined}
      current={current}
      rows={
        isEditable(entry.operationId)
          ? sentRows({ playbookId: playbookOf(entry.draft), ifMatch: entry.draft.ifMatch })
          : sentRows({ ...entry.draft, playbookId: playbookOf(entry.draft) })
      }
      source={sourceOf(body)}
      typeToConfirm={pending.typeToConfirm}
      busy={busy}
      error={error ?? (failedEarlier ? entry.error?.message : undefined)}
      fieldErrors={fieldErrors}
      canRetry={canRetry}
      onConfirm={(submission: ConfirmSubmission) =>
        send({ body: editsFor(loaded.value!, submission.fields), typed: submission.typed })
      }
      onRetry={() => send(lastRequest ?? { body: isEditable(entry.operationId) ? body : undefined })}
      onCancel={() => {
        setBusy(true);
        sendMessage('discardDraft', { id: draftId }).then(
          () => globalThis.close(),
          (failure: unknown) => {
            setBusy(false);
            setError(errorText(failure));
          },
        );
      }}
    />
  );
}
