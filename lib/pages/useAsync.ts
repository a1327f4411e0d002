import { useCallback, useEffect, useState } from 'preact/hooks';
import { MessageError } from '@/lib/messaging/client';

export interface AsyncState<T> {
  value?: T;
  error?: string;
  loading: boolean;
  reload: () => void;
}

/** Resolves once a frame has been painted: work that can wait never competes with the first one. */
export function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

export function errorText(error: unknown): string {
  return error instanceof MessageError ? error.message : 'Something went wrong. Try again.';
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
