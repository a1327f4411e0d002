import { useState } from 'preact/hooks';
import { ConfirmDialog, type ConfirmFields } from '@/components/ConfirmDialog';
import { sendMessage } from '@/lib/messaging/client';
import type { PendingWrite } from '@/lib/messaging/protocol';
import { errorText, useAsync } from './useAsync';

function initialFields(pending: PendingWrite): ConfirmFields {
  const body = pending.entry.draft.body ?? {};
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const visibility =
    body.visibility === 'public' || body.visibility === 'unlisted' ? body.visibility : 'private';
  return {
    title: text(body.title),
    thesis: text(body.thesis),
    tickers: Array.isArray(body.tickers)
      ? body.tickers.filter((t): t is string => typeof t === 'string')
      : [],
    visibility,
  };
}

function sourceUrlOf(body: Record<string, unknown> | undefined): string | undefined {
  const source = body?.source;
  if (!source || typeof source !== 'object') return undefined;
  const url = (source as { url?: unknown }).url;
  return typeof url === 'string' ? url : undefined;
}

export function ConfirmPage({ draftId }: { draftId: string }) {
  const pending = useAsync(() => sendMessage('getPendingWrite', { id: draftId }));
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  if (!pending.value) {
    return (
      <main>
        {pending.error ? (
          <p role="alert" class="error">
            {pending.error}
          </p>
        ) : (
          <p>Loading the draft…</p>
        )}
      </main>
    );
  }
  if (done) {
    return (
      <main class="stack">
        <p role="status">Sent. You can close this window.</p>
      </main>
    );
  }
  const { entry, account } = pending.value;
  return (
    <ConfirmDialog
      operation={entry.operationId}
      initial={initialFields(pending.value)}
      sourceUrl={sourceUrlOf(entry.draft.body)}
      account={account ? `${account.name} (${account.email})` : undefined}
      busy={busy}
      error={error ?? entry.error?.message}
      onConfirm={(fields) => {
        setBusy(true);
        setError(undefined);
        const edits =
          entry.operationId === 'createPlaybook' || entry.operationId === 'updatePlaybook'
            ? { ...fields }
            : undefined;
        sendMessage('confirmWrite', { id: draftId, body: edits }).then(
          () => setDone(true),
          (failure: unknown) => {
            setBusy(false);
            setError(errorText(failure));
          },
        );
      }}
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
