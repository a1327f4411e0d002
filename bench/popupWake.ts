/**
 * `BENCH_ONLY=popup`: what the popup waits on when the worker is asleep. Three
 * conditions, interleaved round by round so the machine's drift falls on all of them alike: the
 * worker running; the worker just stopped (what the main bench calls "worker stopped"); and the
 * worker stopped with no extension context holding the database for a few seconds, which is how a
 * user finds it after the worker's 30 s idle-out. In each, a blank page and then the popup, timed
 * from navigation start; the figure is the popup's first-row paint minus the blank page's paint,
 * pair by pair, and where the popup's time goes: its one database open (asked → opened).
 */
import type { Page } from '@playwright/test';
import type { Sandbox } from '../sandbox/server';
import { launchExtension, marks, stopWorker, type Marks } from './browser';
import { spread, type Spread } from './stats';

/** Longer than Chromium keeps an IndexedDB backing store open after its last connection closes. */
export const DATABASE_IDLE_MS = 4_000;

export type WakeCondition = 'running' | 'stopped' | 'stoppedIdle';

/** The blank page opening the same database under each condition: what any page reading it pays. */
export type BlankOpenFigure = Record<WakeCondition, Spread>;

export interface WakeFigure {
  /** Popup first-row paint − blank page paint, per pair: the goal is a median ≤ 17 ms (one frame). */
  gap: Spread;
  rowPaint: Spread;
  blankPaint: Spread;
  /**
   * When the popup asked for its database (ms since navigation start), and that open, asked →
   * success; none when every first frame came from storage.session (no database opened before it).
   */
  dbAsked?: Spread;
  dbOpen?: Spread;
  /** From the database open's success to the first row in the DOM. */
  openToRow?: Spread;
  /** Pairs whose popup opened the database before its first row (storage.session missed). */
  databaseReads: number;
}

/** One condition's pairs: the gap pair by pair, and where the popups that read the database spent their time. */
function wakeFigure(samples: { blank: Marks; popup: Marks }[]): WakeFigure {
  // Only the popups that opened the database before their first row (the fallback).
  const read = samples
    .map(({ popup }) => popup)
    .filter((popup) => popup.dbOpened !== undefined && popup.dbOpened < popup.firstRow!);
  const some = (values: number[]) => (values.length > 0 ? spread(values) : undefined);
  return {
    gap: spread(samples.map(({ blank, popup }) => popup.firstRowPaint! - blank.firstPaint!)),
    rowPaint: spread(samples.map(({ popup }) => popup.firstRowPaint!)),
    blankPaint: spread(samples.map(({ blank }) => blank.firstPaint!)),
    dbAsked: some(read.map((popup) => popup.dbOpenAsked!)),
    dbOpen: some(read.map((popup) => popup.dbOpened! - popup.dbOpenAsked!)),
    openToRow: some(read.map((popup) => popup.firstRow! - popup.dbOpened!)),
    databaseReads: read.length,
  };
}

export interface WakeFigures {
  popup: Record<WakeCondition, WakeFigure>;
  blankDatabaseOpen: BlankOpenFigure;
  /** The extension origin's storage use (navigator.storage.estimate) at the end. */
  storageBytes: number;
}

/** The extension origin's storage use, read from one of its pages (closed after). */
async function storageUsage(probe: Page, at: string): Promise<number> {
  await probe.goto(at);
  const usage = await probe.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
  await probe.close();
  return usage;
}

export async function benchPopupWake(
  extensionDir: string,
  sandbox: Sandbox,
  runs = 30,
): Promise<WakeFigures> {
  const { context, url, controller, send } = await launchExtension(extensionDir, sandbox);
  try {
    await send('runDiscovery', {});
    // No extension page stays open: a user's browser has none while the popup is closed.
    await controller.close();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const taken: Record<WakeCondition, { blank: Marks; popup: Marks }[]> = {
      running: [],
      stopped: [],
      stoppedIdle: [],
    };
    const pair = async (into: WakeCondition) => {
      const opened: Awaited<ReturnType<typeof context.newPage>>[] = [];
      const blank = await marks(context, url('blank.html'), ['firstRender', 'firstPaint'], false, opened);
      const popup = await marks(context, url('popup.html'), ['firstRow', 'firstRowPaint'], true, opened);
      await Promise.all(opened.map((page) => page.close()));
      taken[into].push({ blank, popup });
    };
    const blankOpen: Record<WakeCondition, number[]> = { running: [], stopped: [], stoppedIdle: [] };
    const blankOpens = async (into: WakeCondition) => {
      const opened: Awaited<ReturnType<typeof context.newPage>>[] = [];
      const blank = await marks(context, url('blank.html#database'), ['dbOpened'], false, opened);
      await Promise.all(opened.map((page) => page.close()));
      blankOpen[into].push(blank.dbOpened! - blank.dbOpenAsked!);
    };
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // The worker is woken by a message from a page that then closes, like the popup's revalidation.
    const wake = async () => {
      const opened: Awaited<ReturnType<typeof context.newPage>>[] = [];
      await marks(context, url('popup.html'), ['firstRow'], true, opened);
      await Promise.all(opened.map((page) => page.close()));
      await pause(500);
    };
    for (let run = 0; run < runs; run++) {
      // The popup's own revalidation (after its paint) leaves the worker running for the next pair.
      await pause(500);
      await pair('running');
      await stopWorker(context, url, 'blank.html');
      await pair('stopped');
      await stopWorker(context, url, 'blank.html');
      await pause(DATABASE_IDLE_MS);
      await pair('stoppedIdle');
      if (run % 3 !== 0) continue;
      // Every third round, the blank page opening the database under the same three conditions.
      await wake();
      await blankOpens('running');
      await stopWorker(context, url, 'blank.html');
      await blankOpens('stopped');
      await wake();
      await stopWorker(context, url, 'blank.html');
      await pause(DATABASE_IDLE_MS);
      await blankOpens('stoppedIdle');
      await wake();
    }
    const usage = await storageUsage(await context.newPage(), url('blank.html'));
    return {
      popup: {
        running: wakeFigure(taken.running),
        stopped: wakeFigure(taken.stopped),
        stoppedIdle: wakeFigure(taken.stoppedIdle),
      },
      storageBytes: usage,
      blankDatabaseOpen: {
        running: spread(blankOpen.running),
        stopped: spread(blankOpen.stopped),
        stoppedIdle: spread(blankOpen.stoppedIdle),
      },
    };
  } finally {
    await context.close();
  }
}
