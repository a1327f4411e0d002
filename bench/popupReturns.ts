/**
 * The popup's rows show the return since capture, read from the read model with the
 * rows, so the first frame waits on no network for it. Does that first frame pay for the figures?
 * The built popup in headless Chromium, worker running and list cached (bench/browser.ts's warm
 * condition), opened in pairs: once with the figures in its saved record and once with them taken
 * out (the record as it was before the figures), alternating which goes first, each pair back to back.
 */
import type { Page } from '@playwright/test';
import type { Sandbox } from '../sandbox/server';
import { launchExtension, marks } from './browser';
import { medianRatioInterval, spread, type Interval, type Spread } from './stats';

export interface PopupReturnsFigures {
  /** Element Timing of the first row's paint, ms from navigation start. */
  withFigures: Spread;
  withoutFigures: Spread;
  /** With − without, within each pair. */
  pairedDifference: Spread;
  /** median(with) / median(without), and its 95 % bootstrap interval over the pairs. */
  ratio: number;
  ratioInterval: Interval;
  /** Opens whose first render held figures: every "with" open should, no "without" one. */
  withShowingFigures: number;
  withoutShowingFigures: number;
  /** Figures in the saved record (one per playbook of the first page that has tickers). */
  figuresSaved: number;
}

/**
 * The popup's saved record (store `snapshot`, key `popup`: lib/store/snapshot.ts) with `returns`
 * set or removed, written from an extension page of the same origin as the worker. Returns the
 * figures it held. A string: tsx would wrap inner functions in helpers the page lacks.
 */
const SET_RETURNS = `async (returns) => {
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open('playbook-companion');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  try {
    const store = db.transaction('snapshot', 'readwrite').objectStore('snapshot');
    const record = await new Promise((resolve) => {
      const request = store.get('popup');
      request.onsuccess = () => resolve(request.result);
    });
    if (!record) return undefined;
    const held = record.returns;
    if (returns === 'keep') return held;
    if (returns) record.returns = returns;
    else delete record.returns;
    await new Promise((resolve, reject) => {
      const request = store.put(record, 'popup');
      request.transaction.oncomplete = resolve;
      request.transaction.onerror = () => reject(request.transaction.error);
    });
    return held;
  } finally {
    db.close();
  }
}`;

type Returns = Record<string, number>;

async function recordReturns(
  controller: Page,
  returns: Returns | null | 'keep',
): Promise<Returns | undefined> {
  return controller.evaluate<Returns | undefined>(`(${SET_RETURNS})(${JSON.stringify(returns)})`);
}

/** Waits (bounded) until the worker has read the figures into the popup's record; returns them. */
async function savedReturns(controller: Page): Promise<Returns> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const returns = await recordReturns(controller, 'keep');
    if (returns && Object.keys(returns).length > 0) return returns;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("the popup's record never got its figures since capture");
}

export async function benchPopupReturns(
  extensionDir: string,
  sandbox: Sandbox,
  runs = 30,
): Promise<PopupReturnsFigures> {
  const { context, url, controller, send } = await launchExtension(extensionDir, sandbox);
  try {
    // The first popup's revalidation reads the figures from the network after its first page.
    await send('openPopup', {});
    const returns = await savedReturns(controller);
    // Settled, as browser.ts's warm condition: the discovery run a first open defers is over.
    await send('runDiscovery', {});
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const taken = { with: [] as number[], without: [] as number[] };
    const showing = { with: 0, without: 0 };
    for (let pair = 0; pair < runs; pair++) {
      const order = pair % 2 === 0 ? (['with', 'without'] as const) : (['without', 'with'] as const);
      for (const condition of order) {
        await recordReturns(controller, condition === 'with' ? returns : null);
        const opened: Page[] = [];
        const popup = await marks(context, url('popup.html'), ['firstRow', 'firstRowPaint'], true, opened);
        await Promise.all(opened.map((page) => page.close()));
        await new Promise((resolve) => setTimeout(resolve, 250));
        taken[condition].push(popup.firstRowPaint!);
        if ((popup.firstRowFigures ?? 0) > 0) showing[condition] += 1;
      }
    }
    const withFigures = spread(taken.with);
    const withoutFigures = spread(taken.without);
    return {
      withFigures,
      withoutFigures,
      pairedDifference: spread(taken.with.map((value, pair) => value - taken.without[pair])),
      ratio: withFigures.median / withoutFigures.median,
      ratioInterval: medianRatioInterval(taken.with, taken.without),
      withShowingFigures: showing.with,
      withoutShowingFigures: showing.without,
      figuresSaved: Object.keys(returns).length,
    };
  } finally {
    await context.close();
  }
}
