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
 * Resolves once the page's first content is on screen, in a task after a frame: work that can wait
 * (a message that wakes the worker, rows below the fold) never competes with that frame. When
 * `requestAnimationFrame` and a task later run, a frame's script and layout are done but not its
 * raster and display; Chromium reports the first contentful paint once those are done too (Firefox
 * as it paints). Without paint timing, the frame's main-thread work is what it waits for. Either
 * way it waits for a frame, so a hidden page (a preloaded popup, a panel in a background tab) waits
 * until it is shown.
 */
export function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    const afterAFrame = () => requestAnimationFrame(() => setTimeout(resolve, 0));
    if (!PerformanceObserver.supportedEntryTypes?.includes('paint')) {
      afterAFrame();
      return;
    }
    let waiting = true;
    const observer = new PerformanceObserver((entries) => {
      if (entries.getEntriesByName('first-contentful-paint').length > 0) painted();
    });
    const painted = () => {
      if (!waiting) return;
      waiting = false;
      observer.disconnect();
      afterAFrame();
    };
    // Buffered: a page that painted before this call finds its entry at once.
    observer.observe({ type: 'paint', buffered: true });
    requestAnimationFrame(() => setTimeout(painted, PAINT_REPORT_WAIT_MS));
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
