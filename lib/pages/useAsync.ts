import { useCallback, useEffect, useState } from 'preact/hooks';
import { errorText } from './errorText';

export interface AsyncState<T> {
  value?: T;
  error?: string;
  loading: boolean;
  reload: () => void;
}

/**
 * Runs a loader on mount and on `reload()`, keeping the last value while a reload runs. The signal
 * aborts when the component unmounts or reloads, so a deferred loader can skip work nobody awaits.
 */
export function useAsync<T>(loader: (signal: AbortSignal) => Promise<T>): AsyncState<T> {
  const [generation, setGeneration] = useState(0);
  const [state, setState] = useState<{ value?: T; error?: string; loading: boolean }>({ loading: true });
  useEffect(() => {
    let live = true;
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    loader(controller.signal).then(
      (value) => live && setState({ value, loading: false }),
      (error: unknown) => live && setState((s) => ({ ...s, error: errorText(error), loading: false })),
    );
    return () => {
      live = false;
      controller.abort();
    };
    // The loader is fixed for the page's lifetime; only reload() re-runs it.
  }, [generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { ...state, reload };
}
