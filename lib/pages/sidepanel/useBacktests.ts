import { useEffect, useRef, useState } from 'preact/hooks';
import type { Backtest } from '@/lib/contract/backtest';
import { sendMessage } from '@/lib/messaging/client';
import { errorText } from '@/lib/pages/errorText';
import { t } from '@/lib/i18n';
import { STATUS_TEXT } from './BacktestsSection';

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
  error?: string;
  /** The backtest whose result is shown: the chosen one, else the newest completed one. */
  shown?: Backtest;
  shownError?: string;
}

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

  const load = () => {
    const id = playbookId;
    if (!id) return;
    setState((s) => ({ ...s, loading: true }));
    sendMessage('listBacktests', { playbookId: id }).then(
      (page) =>
        current.current === id &&
        setState((s) => ({
          ...s,
          items: page.items,
          nextCursor: page.nextCursor,
          hasMore: page.hasMore && page.nextCursor !== null,
          loading: false,
          error: undefined,
        })),
      (error: unknown) =>
        current.current === id && setState((s) => ({ ...s, loading: false, error: errorText(error) })),
    );
  };

  const loadShown = () => {
    const id = playbookId;
    if (!id) return;
    const choice = chosenId;
    const still = () => current.current === id && chosen.current === choice;
    if (!choice) {
      sendMessage('latestBacktests', { playbookIds: [id] }).then(
        ([answer]) =>
          still() && setState((s) => ({ ...s, shown: answer?.backtest, shownError: answer?.error })),
        (error: unknown) => still() && setState((s) => ({ ...s, shownError: errorText(error) })),
      );
      return;
    }
    sendMessage('getBacktest', { id: choice }).then(
      (backtest) =>
        still() &&
        setState((s) =>
          backtest.playbook_id !== id
            ? { ...s, shown: undefined, shownError: t('backtests.otherPlaybook') }
            : backtest.status !== 'completed'
              ? {
                  ...s,
                  shown: undefined,
                  shownError: t('backtests.notCompleted', { status: t(STATUS_TEXT[backtest.status]) }),
                }
              : { ...s, shown: backtest, shownError: undefined },
        ),
      (error: unknown) =>
        still() && setState((s) => ({ ...s, shown: undefined, shownError: errorText(error) })),
    );
  };

  const loadMore = () => {
    const id = playbookId;
    if (!id || !state.nextCursor) return;
    setState((s) => ({ ...s, loading: true }));
    sendMessage('listBacktests', { playbookId: id, cursor: state.nextCursor }).then(
      (page) =>
        current.current === id &&
        setState((s) => ({
          ...s,
          items: [...(s.items ?? []), ...page.items],
          nextCursor: page.nextCursor,
          hasMore: page.hasMore && page.nextCursor !== null,
          loading: false,
        })),
      (error: unknown) =>
        current.current === id && setState((s) => ({ ...s, loading: false, error: errorText(error) })),
    );
  };

  // The latest reads and version, for a re-read that runs later than the render that asked for it.
  const reread = useRef<{
    last: number;
    readVersion: string;
    readChoice?: string;
    timer?: ReturnType<typeof setTimeout>;
  }>({ last: 0, readVersion: version });
  const latest = useRef({ reload: () => undefined as void });
  latest.current = {
    reload: () => {
      reread.current.last = Date.now();
      reread.current.readVersion = version;
      reread.current.readChoice = chosenId;
      load();
      loadShown();
    },
  };

  useEffect(() => {
    setState({ nextCursor: null, hasMore: false, loading: false });
    clearTimeout(reread.current.timer);
    reread.current.timer = undefined;
    latest.current.reload();
  }, [playbookId]);
  useEffect(() => {
    const pace = reread.current;
    if (version === pace.readVersion || pace.timer !== undefined) return;
    pace.timer = setTimeout(
      () => {
        pace.timer = undefined;
        latest.current.reload();
      },
      Math.max(0, pace.last + BACKTESTS_REREAD_MS - Date.now()),
    );
  }, [version]);
  useEffect(() => {
    if (chosenId === reread.current.readChoice) return;
    reread.current.readChoice = chosenId;
    loadShown();
  }, [chosenId]);
  useEffect(() => () => clearTimeout(reread.current.timer), []);

  return { ...state, loadMore };
}
