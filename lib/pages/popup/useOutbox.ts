import { useEffect, useState } from 'preact/hooks';
import { OUTBOX_PORT } from '@/lib/events/port';
import { log } from '@/lib/log';
import { sendMessage } from '@/lib/messaging/client';
import { errorText } from '@/lib/pages/errorText';
import { holdPort, outboxFollower } from '@/lib/pages/workerPush';
import type { PopupDraft } from '@/lib/store/snapshot';

/**
 * The drafts waiting: from the first frame, then by push (the worker posts each transition on the
 * outbox port; nothing is re-read after an action). A list read later (the worker's answer) never
 * undoes a push it predates.
 */
export function useOutbox(first: PopupDraft[] | undefined) {
  const [outbox, setOutbox] = useState<PopupDraft[] | undefined>(first);
  const [outboxBusy, setOutboxBusy] = useState<string[]>([]);
  // A draft keeps the label the worker gave it; a new one is named by its operation.
  const [follower] = useState(() =>
    outboxFollower<PopupDraft>((entry, known) => ({ ...entry, label: known?.label ?? entry.operationId })),
  );

  useEffect(
    () =>
      holdPort(OUTBOX_PORT, (message) => {
        if (message.type === 'outbox') setOutbox((shown) => follower.pushed(shown ?? [], message.change));
      }),
    [follower],
  );

  const draftAction = (id: string, action: () => Promise<unknown>) => {
    setOutboxBusy((busy) => [...busy, id]);
    action()
      .catch((error: unknown) => log.warn('popup.draft-action-failed', { error: errorText(error) }))
      .finally(() => {
        setOutboxBusy((busy) => busy.filter((other) => other !== id));
      });
  };

  return {
    outbox,
    outboxBusy,
    /** A list read from a snapshot or the worker's answer. */
    showOutbox: (read: PopupDraft[]) => setOutbox(follower.read(read)),
    onReopenDraft: (id: string) => draftAction(id, () => sendMessage('reviewWrite', { id })),
    onDiscardDraft: (id: string) => draftAction(id, () => sendMessage('discardDraft', { id })),
    onRetryDraft: (id: string) => draftAction(id, () => sendMessage('retryWrite', { id })),
  };
}
