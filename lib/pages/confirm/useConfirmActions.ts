import { useState } from 'preact/hooks';
import { MessageError, sendMessage } from '@/lib/messaging/client';
import type { OutboxEntryView } from '@/lib/messaging/protocol';
import type { ErrorParts } from '@/lib/pages/errorText';
import { needsReview } from '@/lib/writes/errors';
import { failureParts } from './failures';

/** Nothing was sent and the window must show the draft again (the worker's table says so). */
function needsConfirmation(failure: unknown): boolean {
  return failure instanceof MessageError && needsReview(failure.wire.code);
}

export interface ConfirmRequest {
  token?: string;
  body?: Record<string, unknown>;
  typed?: string;
}

/**
 * What the window's buttons do: Confirm, Retry, and leaving (Cancel, the brokerage link), with the
 * last failure in the user's words. `reload` shows the draft again when the worker asks for it.
 */
export function useConfirmActions(draftId: string, reload: () => void) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ErrorParts>();
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>();
  const [sent, setSent] = useState<OutboxEntryView>();
  const [errorCode, setErrorCode] = useState<string>();

  const failed = (failure: unknown) => {
    setBusy(false);
    setProblem(failureParts(failure));
    setErrorCode(failure instanceof MessageError ? failure.wire.code : undefined);
    if (failure instanceof MessageError) setFieldErrors(failure.wire.fields);
    // Nothing was sent and the draft needs confirming again: show how it resolves now (a new token).
    if (needsConfirmation(failure)) reload();
  };
  const start = () => {
    setBusy(true);
    setProblem(undefined);
    setErrorCode(undefined);
    setFieldErrors(undefined);
  };
  const send = (request: ConfirmRequest) => {
    start();
    sendMessage('confirmWrite', { id: draftId, ...request }).then((result) => setSent(result), failed);
  };
  // Retry resends the confirmed bytes under the same key, or (when anything changed) the worker
  // refuses it and this window shows the draft again; it never sends anything the window did not show.
  const retry = () => {
    start();
    sendMessage('retryWrite', { id: draftId }).then((result) => {
      if (result.outcome === 'sent') setSent(result.entry);
      else {
        setBusy(false);
        reload();
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
        setProblem(failureParts(failure));
      },
    );
  };
  return { busy, problem, errorCode, fieldErrors, sent, send, retry, leave };
}
