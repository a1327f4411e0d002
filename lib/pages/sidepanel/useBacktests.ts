import { useEffect, useRef, useState } from 'preact/hooks';
import type { Backtest } from '@/lib/backtests/schema';
import { sendMessage } from '@/lib/messaging/client';
import { errorText } from '@/lib/pages/errorText';

export interface BacktestsState {
  items?: Backtest[];
  nextCursor: string | null;
  hasMore: boolean;
  loading: boolean;
  error?: string;
  latest?: Backtest;
  latestError?: string;
}

/**
 * The open playbook's backtests and its newest completed one, read again whenever `version`
 * changes (a `backtest.completed` event for it arrived, or a run was sent). Answers for a
 * playbook no longer open are dropped.
 */
export function useBacktests(playbookId: string | undefined, version: string) {
  const [state, setState] = useState<BacktestsState>({ nextCursor: null, hasMore: false, loading: false });
  const current = useRef<string | undefined>(playbookId);
  current.current = playbookId;

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
    sendMessage('latestBacktests', { playbookIds: [id] }).then(
      ([answer]) =>
        current.current === id &&
        setState((s) => ({ ...s, latest: answer?.backtest, latestError: answer?.error })),
      (error: unknown) =>
        current.current === id && setState((s) => ({ ...s, latestError: errorText(error) })),
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

  useEffect(() => {
    setState({ nextCursor: null, hasMore: false, loading: false });
  }, [playbookId]);
  useEffect(load, [playbookId, version]);

  return { ...state, reload: load, loadMore };
}
