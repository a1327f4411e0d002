import { useState } from 'preact/hooks';
import { ConfirmDialog, type ConfirmFields } from '@/components/ConfirmDialog';
import { sendMessage } from '@/lib/messaging/client';
import type { OutboxEntryView } from '@/lib/messaging/protocol';
import { errorText, useAsync } from './useAsync';

function initialFields(entry: OutboxEntryView): ConfirmFields {
  const draft = (entry.draft ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    title: text(draft.title) || text(draft.pageTitle),
    thesis: text(draft.thesis) || text(draft.selectionText),
    tickers: Array.isArray(draft.tickers) ? draft.tickers.filter((t): t is string => typeof t === 'string') : [],
    visibility: 'private',
  };
}

export function ConfirmPage({ draftId }: { draftId: string }) {
  const entry = useAsync(() => sendMessage('getDraft', { id: draftId }));
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  if (!entry.value) {
    return <main>{entry.error ? <p role="alert" class="error">{entry.error}</p> : <p>Loading the draft…</p>}</main>;
  }
  return (
    <ConfirmDialog
      operation={entry.value.operationId}
      initial={initialFields(entry.value)}
      busy={busy}
      error={error}
      onConfirm={() => setError('Sending playbooks is not available in this version yet; your draft is kept.')}
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
