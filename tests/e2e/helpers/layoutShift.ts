import type { Page } from '@playwright/test';

/**
 * Layout shift of each page so far (Layout Instability API, shifts after input left out), counted
 * from the first moment: give it to `context.addInitScript` before the pages open.
 */
export const COUNT_LAYOUT_SHIFT = `(() => {
  globalThis.__layoutShift = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) globalThis.__layoutShift += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
})();`;

/** The layout shift counted so far in `page`. */
export function layoutShift(page: Page): Promise<number | undefined> {
  return page.evaluate(() => (globalThis as { __layoutShift?: number }).__layoutShift);
}
