import { useEffect, useRef, useState } from 'preact/hooks';
import type { Backtest } from '@/lib/contract/backtest';
import type { ComparedPlaybook } from './ComparisonView';
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
 * A backtest read because the user chose it for a playbook: shown only if it is that playbook's and
 * completed; otherwise the words saying why not (a service may answer with anyone's backtest).
 */
export function checkedChoice(
  backtest: Backtest,
  playbookId: string,
): { backtest?: Backtest; error?: string } {
  if (backtest.playbook_id !== playbookId) return { error: t('backtests.otherPlaybook') };
  if (backtest.status !== 'completed')
    return { error: t('backtests.notCompleted', { status: t(STATUS_TEXT[backtest.status]) }) };
  return { backtest };
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
        setState((s) => {
          const checked = checkedChoice(backtest, id);
          return { ...s, shown: checked.backtest, shownError: checked.error };
        }),
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

export interface ComparisonState {
  playbooks?: ComparedPlaybook[];
  loading: boolean;
  error?: string;
}

/** The completed backtests of a list page to pick from, with the newest completed one first if the page lacks it. */
function choicesOf(items: readonly Backtest[], newest: Backtest | undefined): Backtest[] {
  const completed = items.filter((item) => item.status === 'completed');
  return newest && !completed.some((item) => item.id === newest.id) ? [newest, ...completed] : completed;
}

/**
 * The comparison: for each chosen playbook its newest completed backtest (with equity) and the
 * completed ones of its first list page to pick from; `pick` reads another one and compares it
 * instead once it proves to be that playbook's and completed. An answer for a comparison or a
 * pick no longer current is dropped.
 */
export function useComparison() {
  const [state, setState] = useState<ComparisonState>();
  const round = useRef(0);
  const picks = useRef(new Map<string, number>());

  const compare = (chosen: readonly { id: string; title: string }[]) => {
    const current = ++round.current;
    picks.current.clear();
    setState({ loading: true });
    const lists = chosen.map((p) =>
      sendMessage('listBacktests', { playbookId: p.id }).then(
        (page) => page.items,
        () => [] as Backtest[],
      ),
    );
    Promise.all([
      sendMessage('latestBacktests', { playbookIds: chosen.map((p) => p.id) }),
      Promise.all(lists),
    ]).then(
      ([answers, pages]) =>
        round.current === current &&
        setState({
          loading: false,
          playbooks: chosen.map((p, i) => ({
            id: p.id,
            title: p.title,
            backtest: answers[i]?.backtest,
            error: answers[i]?.error,
            choices: choicesOf(pages[i] ?? [], answers[i]?.backtest),
          })),
        }),
      (error: unknown) => round.current === current && setState({ loading: false, error: errorText(error) }),
    );
  };

  const pick = (playbookId: string, backtestId: string) => {
    const current = round.current;
    const asked = (picks.current.get(playbookId) ?? 0) + 1;
    picks.current.set(playbookId, asked);
    const still = () => round.current === current && picks.current.get(playbookId) === asked;
    const settle = (change: Partial<ComparedPlaybook>) =>
      still() &&
      setState(
        (s) =>
          s && { ...s, playbooks: s.playbooks?.map((p) => (p.id === playbookId ? { ...p, ...change } : p)) },
      );
    sendMessage('getBacktest', { id: backtestId }).then(
      (backtest) => {
        const checked = checkedChoice(backtest, playbookId);
        settle({ backtest: checked.backtest, error: checked.error });
      },
      (error: unknown) => settle({ backtest: undefined, error: errorText(error) }),
    );
  };

  const close = () => {
    round.current++;
    setState(undefined);
  };

  return { comparison: state, compare, pick, close };
}
