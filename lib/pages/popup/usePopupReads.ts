import { useEffect, useRef } from 'preact/hooks';
import { log } from '@/lib/log';
import { MessageError, sendMessage } from '@/lib/messaging/client';
import type { PopupOpened } from '@/lib/messaging/protocol';
import type { PopupSnapshot } from '@/lib/store/snapshot';
import type { PopupOpening } from './PopupPage';
import type { ListScope, VisibilityFilter } from './PopupView';
import type { PlaybookListModel } from './usePlaybookList';
import { askView, viewOf } from './views';

/** What the popup's reads fill in: the status, the drafts, the rows' figures and the list. */
export interface PopupReadTargets {
  showStatus: (snapshot: PopupSnapshot) => void;
  failStatus: (error: unknown) => void;
  showOutbox: (read: PopupSnapshot['outbox']) => void;
  setReturns: (returns: Record<string, number>) => void;
  list: PlaybookListModel;
}

/**
 * The first open: the snapshot painted, the one message `openPopup` revalidates everything it holds
 * (a snapshot read that was late still shows if it beats that answer). Returns the shown records' binding.
 */
function openFirst(
  opening: PopupOpening | undefined,
  to: PopupReadTargets,
  live: () => boolean,
  bind: (binding: string) => void,
) {
  let answered = false;
  let failure: unknown;
  const show = (snapshot: PopupSnapshot) => {
    bind(snapshot.binding);
    to.showStatus(snapshot);
    to.showOutbox(snapshot.outbox);
    if (snapshot.returns) to.setReturns(snapshot.returns);
    if (snapshot.page && live()) to.list.refreshFirst(snapshot.page);
  };
  opening?.late?.then(
    (snapshot) => {
      if (!snapshot || answered) return;
      show(snapshot);
      // The worker failed before the snapshot was read: the rows show, and so does why they are old.
      if (failure !== undefined && live()) to.list.fail(failure);
    },
    (error: unknown) => log.warn('popup.snapshot-read-failed', { error }),
  );
  // Nothing given: the page asks itself.
  const answer: Promise<PopupOpened> = opening?.answer ?? sendMessage('openPopup', {});
  answer.then(
    (fresh) => {
      answered = true;
      show(fresh);
      if (fresh.pageError && live()) to.list.fail(new MessageError(fresh.pageError));
      else if (!fresh.page && fresh.state.key.set && live())
        to.list.setList((current) => ({ ...current, loading: false }));
    },
    (error: unknown) => {
      failure = error;
      to.failStatus(error);
      if (live()) to.list.fail(error);
    },
  );
}

/**
 * Every read of the popup: the first open from what start.tsx decided, then each view the user
 * picks (scope, filter, retry) the same way: its cached copy at once, the one message `readView`.
 */
export function usePopupReads(
  opening: PopupOpening | undefined,
  to: PopupReadTargets,
  view: { scope: ListScope; visibility: VisibilityFilter; reloads: number; setupNeeded: boolean },
) {
  const opened = useRef(false);
  /** The service and key the shown records were read for: the read model's cache is read for them only. */
  const binding = useRef(opening?.first?.binding);
  const { scope, visibility, reloads, setupNeeded } = view;
  useEffect(() => {
    const { list } = to;
    const mine = list.generation.current + 1;
    list.generation.current = mine;
    const live = () => list.generation.current === mine;
    if (!opened.current) {
      opened.current = true;
      openFirst(opening, to, live, (shown) => (binding.current = shown));
      // Without a key (known from the snapshot) the public library is read as well.
      if (scope !== 'public' || setupNeeded) return;
    }
    if (setupNeeded) return;
    list.restart(reloads > 0);
    askView(viewOf(scope, visibility), {
      binding: binding.current,
      cached: (page) => live() && list.apply(page, false),
    }).then(
      (fresh) => live() && list.apply(fresh, false),
      (error: unknown) => live() && list.fail(error),
    );
  }, [scope, visibility, reloads, setupNeeded]);
}
