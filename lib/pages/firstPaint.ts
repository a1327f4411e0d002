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
