import { useEffect, useRef, useState } from 'preact/hooks';
import type { Backtest } from '@/lib/contract/backtest';
import { sendMessage } from '@/lib/messaging/client';
import { answeredErrorParts, errorParts, type ErrorParts } from '@/lib/pages/errorText';
import { t } from '@/lib/i18n';
import { backtestStatusText } from '@/lib/pages/playbookWords';
import type { BacktestPage, Kept, SavedCopy } from '@/lib/contract/wire';
import { isUnreachable } from './SavedCopyMark';

/**
 * Completions can arrive by the hundred (a flood of events): a new one is read at most once per
 * this interval, the last always, so the panel never sends the worker a read per event.
 */
export const BACKTESTS_REREAD_MS = 1_000;

export interface BacktestsState {
  items?: Backtest[];
  nextCursor: string | null;
  hasMore: boolean;
  loading: boolean;
  error?: ErrorParts;
  /** The list could not be read: the service was out of reach and nothing was saved. */
  unreachable?: boolean;
  /** The list is the copy saved when the playbook was last opened. */
  savedCopy?: SavedCopy;
  /** The backtest whose result is shown: the chosen one, else the newest completed one. */
  shown?: Backtest;
  shownError?: ErrorParts;
}

/**
 * A backtest read because the user chose it for a playbook: shown only if it is that playbook's and
 * completed; otherwise the words saying why not (a service may answer with anyone's backtest).
 */
export function checkedChoice(
  backtest: Backtest,
  playbookId: string,
): { backtest?: Backtest; error?: ErrorParts } {
  if (backtest.playbook_id !== playbookId) return { error: { message: t('backtests.otherPlaybook') } };
  if (backtest.status !== 'completed')
    return {
      error: {
        message: t('backtests.notCompleted', {
          status: backtestStatusText(backtest.status) ?? backtest.status,
        }),
      },
    };
  return { backtest };
}

/** A list page as the state holds it; `more` appends it to the items already shown. */
function withPage(s: BacktestsState, page: Kept<BacktestPage>, more: boolean): BacktestsState {
  return {
    ...s,
    items: more ? [...(s.items ?? []), ...page.items] : page.items,
    nextCursor: page.saved ? null : page.nextCursor,
    // A saved copy's later pages need the service: no "Load more" offline.
    hasMore: !page.saved && page.hasMore && page.nextCursor !== null,
    loading: false,
    ...(more ? {} : { error: undefined, unreachable: false, savedCopy: page.saved }),
  };
}

interface Rereads {
  /** Read everything again (a new playbook, a new version). */
  reload: () => void;
  /** Read the shown result again (a new choice). */
  reshow: () => void;
  /** Forget the last playbook's state. */
  reset: () => void;
}

/**
 * When to read again: everything for a new `playbookId`; everything when `version` changes, at
 * most once per BACKTESTS_REREAD_MS and always after the last change; the shown result for a new
 * `chosenId`.
 */
function useRereads(
  playbookId: string | undefined,
  version: string,
  chosenId: string | undefined,
  on: Rereads,
) {
  // The latest reads and version, for a re-read that runs later than the render that asked for it.
  const pace = useRef<{ last: number; readVersion: string; readChoice?: string; timer?: Timer }>({
    last: 0,
    readVersion: version,
  });
  const latest = useRef(on);
  latest.current = {
    ...on,
    reload: () => {
      pace.current.last = Date.now();
      pace.current.readVersion = version;
      pace.current.readChoice = chosenId;
      on.reload();
    },
  };
  useEffect(() => {
    latest.current.reset();
    clearTimeout(pace.current.timer);
    pace.current.timer = undefined;
    latest.current.reload();
  }, [playbookId]);
  useEffect(() => {
    const p = pace.current;
    if (version === p.readVersion || p.timer !== undefined) return;
    const wait = Math.max(0, p.last + BACKTESTS_REREAD_MS - Date.now());
    p.timer = setTimeout(() => {
      p.timer = undefined;
      latest.current.reload();
    }, wait);
  }, [version]);
  useEffect(() => {
    if (chosenId === pace.current.readChoice) return;
    pace.current.readChoice = chosenId;
    latest.current.reshow();
  }, [chosenId]);
  useEffect(() => () => clearTimeout(pace.current.timer), []);
}

type Timer = ReturnType<typeof setTimeout>;

/**
 * The open playbook's backtests and the one whose result is shown: `chosenId` (from a notification
 * or the list) when given, else the newest completed one. Read again whenever `version` changes (a
 * `backtest.completed` event for it arrived, or a run was sent). Answers for a playbook or a
 * choice no longer current are dropped.
 */
export function useBacktests(playbookId: string | undefined, version: string, chosenId?: string) {
  const [state, setState] = useState<BacktestsState>({ nextCursor: null, hasMore: false, loading: false });
  const current = useRef<string | undefined>(playbookId);
  current.current = playbookId;
  const chosen = useRef<string | undefined>(chosenId);
  chosen.current = chosenId;

  const readList = (cursor?: string) => {
    const id = playbookId;
    if (!id) return;
    setState((s) => ({ ...s, loading: true }));
    sendMessage('listBacktests', cursor ? { playbookId: id, cursor } : { playbookId: id }).then(
      (page) => current.current === id && setState((s) => withPage(s, page, cursor !== undefined)),
      (error: unknown) =>
        current.current === id &&
        setState((s) => ({
          ...s,
          loading: false,
          error: errorParts(error),
          unreachable: isUnreachable(error),
        })),
    );
  };

  const loadShown = () => {
    const id = playbookId;
    if (!id) return;
    const choice = chosenId;
    const still = () => current.current === id && chosen.current === choice;
    const failed = (error: unknown) =>
      still() && setState((s) => ({ ...s, shown: undefined, shownError: errorParts(error) }));
    if (!choice) {
      sendMessage('latestBacktests', { playbookIds: [id] }).then(
        ([answer]) =>
          still() &&
          setState((s) => ({ ...s, shown: answer?.backtest, shownError: answeredErrorParts(answer ?? {}) })),
        failed,
      );
      return;
    }
    sendMessage('getBacktest', { id: choice }).then((backtest) => {
      const checked = checkedChoice(backtest, id);
      if (still()) setState((s) => ({ ...s, shown: checked.backtest, shownError: checked.error }));
    }, failed);
  };

  useRereads(playbookId, version, chosenId, {
    reload: () => {
      readList();
      loadShown();
    },
    reshow: loadShown,
    reset: () => setState({ nextCursor: null, hasMore: false, loading: false }),
  });

  const loadMore = () => {
    if (state.nextCursor) readList(state.nextCursor);
  };
  return { ...state, loadMore };
}
