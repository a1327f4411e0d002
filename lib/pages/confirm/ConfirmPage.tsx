import { useState } from 'preact/hooks';
import { ConfirmDialog, type ConfirmSubmission } from './ConfirmDialog';
import { Disclaimer } from '@/components/Disclaimer';
import { t } from '@/lib/i18n';
import { sendMessage } from '@/lib/messaging/client';
import { writeWords } from '@/lib/api/writeOperations';
import type { OutboxEntryView, WriteDraft } from '@/lib/messaging/protocol';
import { playbookPageUrl } from '@/lib/pages/navigation';
import { useAsync } from '@/lib/pages/useAsync';
import type { ErrorParts } from '@/lib/pages/errorText';
import { meaningOf } from '@/lib/writes/errors';
import { ErrorMessage } from '@/components/ErrorMessage';
import { editsFor, loadDraft, shownDraft, type Loaded } from './loadDraft';
import { storedFailure } from '@/lib/pages/errorText';
import { failureParts } from './failures';
import { ProblemDetails } from '@/components/ProblemMessage';
import { useConfirmActions } from './useConfirmActions';

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

/** The pending write as loaded, and why it could not be, in the user's words with its record. */
function useDraft(draftId: string) {
  const [problem, setProblem] = useState<ErrorParts>();
  const loaded = useAsync(() =>
    loadDraft(draftId).catch((failure: unknown) => {
      setProblem(failureParts(failure));
      throw failure;
    }),
  );
  return {
    ...loaded,
    problem: loaded.error === undefined ? undefined : (problem ?? { message: loaded.error }),
  };
}

/** The confirm window's controller: loads the pending write, sends the user's confirmation, shows the outcome. */
export function ConfirmPage({ draftId }: { draftId: string }) {
  const loaded = useDraft(draftId);
  const actions = useConfirmActions(draftId, loaded.reload);
  if (!loaded.value) {
    return (
      <main class="confirm-done">
        {loaded.problem ? (
          <>
            <ErrorMessage message={loaded.problem.message} />
            <ProblemDetails lines={[loaded.problem.details]} />
          </>
        ) : (
          <p>{t('confirm.loading')}</p>
        )}
      </main>
    );
  }
  const { entry } = loaded.value.pending;
  if (actions.sent ?? entry.status === 'sent') return <Done entry={actions.sent ?? entry} />;
  return <LoadedDraft draftId={draftId} loaded={loaded.value} actions={actions} />;
}

function LoadedDraft({
  draftId,
  loaded,
  actions,
}: {
  draftId: string;
  loaded: Loaded;
  actions: ReturnType<typeof useConfirmActions>;
}) {
  const { pending } = loaded;
  const { entry } = pending;
  const { problem, leave } = actions;
  const provider = loaded.brokerageMissing?.providers[0];
  const failedEarlier = entry.status === 'failed' && problem === undefined;
  const canRetry =
    meaningOf(problem !== undefined ? actions.errorCode : entry.error?.code).retryable &&
    (failedEarlier || problem !== undefined);

  return (
    <ConfirmDialog
      {...shownDraft(loaded)}
      busy={actions.busy}
      error={problem ?? storedFailure(entry)}
      fieldErrors={actions.fieldErrors}
      canRetry={canRetry}
      onConfirm={(submission: ConfirmSubmission) =>
        actions.send({
          token: pending.token,
          body: editsFor(loaded, submission.fields),
          typed: submission.typed,
        })
      }
      onRetry={actions.retry}
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
