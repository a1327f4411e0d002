import { useCallback, useEffect, useState } from 'preact/hooks';
import { MessageError } from '@/lib/messaging/client';

export interface AsyncState<T> {
  value?: T;
  error?: string;
  loading: boolean;
  reload: () => void;
}

/** A browser that draws a frame but never reports its paint holds the page's later work back this long at most. */
const PAINT_REPORT_WAIT_MS = 500;

/**
 * Resolves once the page's first content is on screen: work that can wait (a message that wakes
 * the worker, rows below the fold) never competes with that frame. A frame's script and layout are
 * done when `requestAnimationFrame` and a task later run, but its raster and display are not; the
 * first contentful paint is reported once they are. Without paint timing, a frame's main-thread
 * work is what it waits for. A hidden page (a preloaded popup) draws no frame and so waits.
 */
export function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    const next = () => setTimeout(resolve, 0);
    if (!PerformanceObserver.supportedEntryTypes?.includes('paint')) {
      requestAnimationFrame(next);
      return;
    }
    let waiting = true;
    const observer = new PerformanceObserver((entries) => {
      if (entries.getEntriesByName('first-contentful-paint').length > 0) finish();
    });
    const finish = () => {
      if (!waiting) return;
      waiting = false;
      observer.disconnect();
      next();
    };
    observer.observe({ type: 'paint', buffered: true });
    requestAnimationFrame(() => setTimeout(finish, PAINT_REPORT_WAIT_MS));
  });
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
