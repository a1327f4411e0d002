import { useEffect, useRef, useState } from 'preact/hooks';
import type { ActionKind, ActionState } from './PlaybookDetail';
import { MessageError, sendMessage } from '@/lib/messaging/client';
import { errorText } from '@/lib/pages/errorText';

const POLL_MS = 700;
/** A confirm window left open longer than this is no longer followed (the outbox keeps the draft). */
const FOLLOW_MS = 15 * 60 * 1000;

export interface WriteRequest {
  operationId: ActionKind;
  /** The playbook it acts on; the worker binds it to the path parameter the document names. */
  playbookId?: string;
  body?: Record<string, unknown>;
  ifMatch?: string;
}

/**
 * The side panel never sends a write itself: it queues the intent (`requestWrite`), the confirm
 * window sends it, and the panel follows the outbox entry with `getDraft` until it is sent,
 * failed or discarded (IndexedDB has no change events, so this is a short poll while a draft is open).
 */
export function useWriteTracker(onSettled: (operationId: ActionKind, status: ActionState['status']) => void) {
  const [action, setAction] = useState<ActionState>();
  const generation = useRef(0);
  const settled = useRef(onSettled);
  settled.current = onSettled;
  useEffect(() => () => void (generation.current += 1), []);

  async function follow(draftId: string, operationId: ActionKind, mine: number) {
    const started = Date.now();
    let last: ActionState['status'] = 'waiting';
    while (generation.current === mine && Date.now() - started < FOLLOW_MS) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      if (generation.current !== mine) return;
      try {
        const entry = await sendMessage('getDraft', { id: draftId });
        if (entry.status === 'sent') {
          const result = (entry.draft as { result?: { urlRefused?: string } } | undefined)?.result;
          setAction({ operationId, status: 'sent', message: result?.urlRefused });
          settled.current(operationId, 'sent');
          return;
        }
        if (entry.status === 'failed' && last !== 'failed') {
          last = 'failed';
          setAction({
            operationId,
            status: 'failed',
            message: entry.error?.message,
            code: entry.error?.code,
            problemCode: entry.error?.problemCode,
          });
          settled.current(operationId, 'failed');
        }
        // Still failed: the user may retry in the confirm window, so keep following.
      } catch (error) {
        if (error instanceof MessageError && error.code === 'draft-not-found') {
          if (last !== 'failed') setAction({ operationId, status: 'cancelled' });
          return;
        }
      }
    }
  }

  function request(write: WriteRequest): void {
    const mine = ++generation.current;
    setAction({ operationId: write.operationId, status: 'waiting' });
    sendMessage('requestWrite', write).then(
      ({ draftId }) => follow(draftId, write.operationId, mine),
      (error: unknown) =>
        setAction({ operationId: write.operationId, status: 'failed', message: errorText(error) }),
    );
  }

  return { action, request, clear: () => setAction(undefined) };
}
