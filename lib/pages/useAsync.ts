import { useCallback, useEffect, useState } from 'preact/hooks';
import { MessageError } from '@/lib/messaging/client';

export interface AsyncState<T> {
  value?: T;
  error?: string;
  loading: boolean;
  reload: () => void;
}

export function errorText(error: unknown): string {
  return error instanceof MessageError ? error.message : 'Something went wrong. Try again.';
}

/** Runs a loader on mount and on `reload()`, keeping the last value while a reload runs. */
export function useAsync<T>(loader: () => Promise<T>): AsyncState<T> {
  const [generation, setGeneration] = useState(0);
  const [state, setState] = useState<{ value?: T; error?: string; loading: boolean }>({ loading: true });
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    loader().then(
      (value) => live && setState({ value, loading: false }),
      (error: unknown) => live && setState((s) => ({ ...s, error: errorText(error), loading: false })),
    );
    return () => {
      live = false;
    };
    // The loader is fixed for the page's lifetime; only reload() re-runs it.
  }, [generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { ...state, reload };
}
