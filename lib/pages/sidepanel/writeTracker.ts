import { useEffect, useRef, useState } from 'preact/hooks';
import type { ActionKind, ActionState } from './PlaybookDetail';
import { sendMessage } from '@/lib/messaging/client';
import type { OutboxEntryView } from '@/lib/messaging/protocol';
import { errorText } from '@/lib/pages/errorText';
import { onOutboxChange } from '@/lib/pages/workerPush';

export interface WriteRequest {
  operationId: ActionKind;
  /** The playbook it acts on; the worker binds it to the path parameter the document names. */
  playbookId?: string;
  body?: Record<string, unknown>;
  ifMatch?: string;
}

/**
 * The side panel never sends a write itself: it queues the intent (`requestWrite`), the confirm
 * window sends it, and the panel follows the outbox entry by the changes the worker pushes over
 * the events port (lib/writes announces every transition), until it is sent or discarded.
 */
export function useWriteTracker(onSettled: (operationId: ActionKind, status: ActionState['status']) => void) {
  const [action, setAction] = useState<ActionState>();
  const followed = useRef<
    { draftId: string; operationId: ActionKind; last: ActionState['status'] } | undefined
  >(undefined);
  const settled = useRef(onSettled);
  settled.current = onSettled;

  function apply(change: OutboxEntryView | { id: string; removed: true }) {
    const mine = followed.current;
    if (!mine || change.id !== mine.draftId) return;
    const { operationId } = mine;
    if ('removed' in change) {
      followed.current = undefined;
      if (mine.last !== 'failed') setAction({ operationId, status: 'cancelled' });
      return;
    }
    if (change.status === 'sent') {
      followed.current = undefined;
      const result = (change.draft as { result?: { urlRefused?: string } } | undefined)?.result;
      setAction({ operationId, status: 'sent', message: result?.urlRefused });
      settled.current(operationId, 'sent');
      return;
    }
    if (change.status === 'failed' && mine.last !== 'failed') {
      mine.last = 'failed';
      setAction({
        operationId,
        status: 'failed',
        message: change.error?.message,
        code: change.error?.code,
        problemCode: change.error?.problemCode,
      });
      settled.current(operationId, 'failed');
    } else if (change.status !== 'failed') mine.last = 'waiting';
    // Still open: the user may confirm again in the confirm window, so keep following.
  }

  useEffect(() => {
    const stop = onOutboxChange(apply);
    return () => {
      stop();
      followed.current = undefined;
    };
  }, []);

  function request(write: WriteRequest): void {
    followed.current = undefined;
    setAction({ operationId: write.operationId, status: 'waiting' });
    sendMessage('requestWrite', write).then(
      ({ draftId }) => {
        followed.current = { draftId, operationId: write.operationId, last: 'waiting' };
        // A change pushed before the id was known: read the entry once.
        sendMessage('getDraft', { id: draftId }).then(apply, () => undefined);
      },
      (error: unknown) =>
        setAction({ operationId: write.operationId, status: 'failed', message: errorText(error) }),
    );
  }

  return { action, request, clear: () => setAction(undefined) };
}
