/**
 * Figures from the built extension in headless Chromium against a started sandbox: popup first
 * row beside a blank extension page (blank.html, non-store builds only) under the same
 * condition (warm, worker stopped, first open right after Save), and the popup's floor
 * (popup-floor.html: its snapshot read and one bare row) beside the blank page, the popup's requests,
 * service-worker cold start to the first answered message, and the worker's heap after paging
 * 10,000 playbooks through it.
 */
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium, welcomeTab } from '../tests/e2e/chromium';
import type { Sandbox } from '../sandbox/server';
import { medianRatioInterval, spread, type Interval, type Spread } from './stats';

type Answer = { ok: true; value: unknown } | { ok: false; error: { message: string } };
declare const chrome: {
  runtime: { sendMessage(message: unknown): Promise<Answer> };
};

/**
 * One condition: the popup's first row and the blank page's first element, opened the same way,
 * each timed twice: when it is painted (what the user sees) and when it enters the DOM.
 */
export interface PageCondition {
  /** Element Timing of the first row's paint; the blank page's first contentful paint. */
  popupFirstRowPaint: Spread;
  blankFirstPaint: Spread;
  /** Popup paint median over blank paint median: the figure the goal (≤ 1.5) is about. */
  ratio: number;
  /**
   * How precise `ratio` is: its 95 % bootstrap interval over the pairs. Paint times come in 4 ms
   * steps, so one step of the blank page's median moves the ratio by up to about 0.15 (half that
   * when the median of an even count falls between two steps).
   */
  ratioInterval: Interval;
  /** Popup over blank within each pair (opened back to back): less exposed to the machine's load drifting between pairs. */
  pairedRatio: Spread;
  /** Popup row paint − blank paint within each pair, in ms: the goal is a median within one frame (≤ 17 ms). */
  pairedGap: Spread;
  /** When the first row / the blank page's element entered the DOM (MutationObserver). */
  popupFirstRowInDom: Spread;
  blankInDom: Spread;
  domRatio: number;
  /** Layout shift (CLS sum, no input) from open until the worker's fresh answer replaced the saved copy. */
  layoutShift: Spread;
  /** The popup's floor under the same condition; none right after Save, when there is no snapshot to read. */
  floor?: FloorFigure;
}

/**
 * popup-floor.html (entrypoints/popup-floor): the popup's own snapshot read and one bare row, no
 * Preact and no styles. Timed in pairs of its own with the blank page, like the popup.
 */
export interface FloorFigure {
  firstRowPaint: Spread;
  blankFirstPaint: Spread;
  ratio: number;
  ratioInterval: Interval;
}

export interface BrowserFigures {
  warm: PageCondition;
  workerStopped: PageCondition;
  afterSave: PageCondition;
  /** What the built popup loads on open, in request order (extension-relative). */
  popupRequests: { url: string; type: string }[];
  workerColdStartToAnswer: Spread;
  workerWarmAnswer: Spread;
  workerHeap: {
    playbooksPaged: number;
    messages: number;
    beforeBytes: number;
    afterPagingBytes: Spread;
    afterGcBytes: Spread;
  };
  notes: string[];
}

/**
 * Marks, in ms since navigation start: when the page's first element and its first playbook row
 * entered the DOM, when they were painted (first-contentful-paint; Element Timing, whose
 * attribute is set on the row as it is inserted, before any paint), and the layout shift so far.
 * A string, not a function: tsx would wrap inner functions in helpers the page lacks.
 */
export const INSTALL_MARKS = `(() => {
  const marks = { layoutShift: 0 };
  globalThis.__bench = marks;
  // The page's first database open: when it was asked for and when it succeeded (or failed).
  const open = indexedDB.open.bind(indexedDB);
  indexedDB.open = (...args) => {
    const request = open(...args);
    if (marks.dbOpenAsked === undefined) {
      marks.dbOpenAsked = performance.now();
      const done = () => { if (marks.dbOpened === undefined) marks.dbOpened = performance.now(); };
      request.addEventListener('success', done);
      request.addEventListener('error', done);
    }
    return request;
  };
  // blank.html#database: the blank page opens the extension's database too (bench/popupWake.ts).
  if (location.hash === '#database')
    addEventListener('load', () => {
      indexedDB.open('playbook-companion').onsuccess = (event) => event.target.result.close();
    });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name === 'first-contentful-paint') marks.firstPaint = entry.startTime;
      if (entry.entryType === 'element' && entry.identifier === 'first-row' && marks.firstRowPaint === undefined)
        marks.firstRowPaint = entry.renderTime || entry.loadTime;
      if (entry.entryType === 'layout-shift' && !entry.hadRecentInput) marks.layoutShift += entry.value;
    }
  }).observe({ entryTypes: ['paint', 'element', 'layout-shift'] });
  new MutationObserver(() => {
    const now = performance.now();
    if (marks.firstRender === undefined && document.body && document.body.querySelector('main, h1, p, [role]'))
      marks.firstRender = now;
    const row = document.querySelector('[aria-label="Playbooks"] li');
    if (marks.firstRow === undefined && row) {
      marks.firstRow = now;
      (row.querySelector('button') || row).setAttribute('elementtiming', 'first-row');
      // The rows' figures since capture present in that first render: bench/popupReturns.ts.
      marks.firstRowFigures = document.querySelectorAll('[aria-label="Playbooks"] .pb-return').length;
    }
  }).observe(document, { childList: true, subtree: true });
})();`;

export type Marks = Partial<
  Record<
    | 'firstRender'
    | 'firstPaint'
    | 'firstRow'
    | 'firstRowPaint'
    | 'firstRowFigures'
    | 'layoutShift'
    | 'dbOpenAsked'
    | 'dbOpened',
    number
  >
>;

/** Opens `url` in a new tab (added to `opened`, for the caller to close) and returns its marks once `ready` names are all set. */
export async function marks(
  context: BrowserContext,
  url: string,
  ready: (keyof Marks)[],
  settle = false,
  opened: Page[] = [],
): Promise<Marks> {
  const page = await context.newPage();
  opened.push(page);
  await page.goto(url);
  await page.waitForFunction(
    (names) => {
      const marks = (globalThis as { __bench?: Record<string, number | undefined> }).__bench;
      return names.every((name) => marks?.[name] !== undefined);
    },
    ready,
    { timeout: 15_000, polling: 5 },
  );
  // The popup's saved copy is replaced by the worker's answer: shifts are counted until then. The
  // page's text is looked at from here, after the marks, not in the observer inside the timed window.
  if (settle)
    await page
      .waitForFunction(() => !document.body.textContent?.includes('Refreshing…'), null, {
        timeout: 5_000,
        polling: 20,
      })
      .catch(() => undefined);
  return await page.evaluate(() => ({ ...(globalThis as { __bench?: Marks }).__bench }));
}

export async function stopWorker(
  context: BrowserContext,
  url: (page: string) => string,
  from: 'confirm.html' | 'blank.html' = 'confirm.html',
): Promise<void> {
  const page = await context.newPage();
  await page.goto(url(from));
  const cdp = await context.newCDPSession(page);
  const stopped = new Promise<void>((resolve) => {
    cdp.on('ServiceWorker.workerVersionUpdated', (event) => {
      if (event.versions.some((version) => version.runningStatus === 'stopped')) resolve();
    });
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await stopped;
  await page.close();
}

/** CDP into the worker target through a page session (non-flattened attach, as Playwright exposes no worker session). */
async function workerCdp(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  const { targetInfos } = await cdp.send('Target.getTargets');
  const target = targetInfos.find(
    (info) => info.type === 'service_worker' && info.url.startsWith('chrome-extension://'),
  );
  if (!target) throw new Error('no service worker target');
  const { sessionId } = await cdp.send('Target.attachToTarget', {
    targetId: target.targetId,
    flatten: false,
  });
  let nextId = 1;
  const pending = new Map<number, (result: Record<string, unknown>) => void>();
  cdp.on('Target.receivedMessageFromTarget', (event) => {
    const message = JSON.parse(event.message) as { id?: number; result?: Record<string, unknown> };
    if (message.id !== undefined) pending.get(message.id)?.(message.result ?? {});
  });
  const send = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      void cdp.send('Target.sendMessageToTarget', {
        sessionId,
        message: JSON.stringify({ id, method, params }),
      });
    });
  return {
    heapUsed: async () => (await send('Runtime.getHeapUsage')).usedSize as number,
    collectGarbage: () => send('HeapProfiler.collectGarbage'),
    detach: () => cdp.detach(),
  };
}

/** Chromium with the built extension loaded, its service and key saved, and its list read once. */
export async function launchExtension(extensionDir: string, sandbox: Sandbox, userDataDir = '') {
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: findChromium(),
    headless: true,
    args: [
      ...CHROMIUM_ARGS,
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
    ],
  });
  await context.addInitScript({ content: INSTALL_MARKS });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const id = new URL(worker.url()).host;
  const url = (page: string) => `chrome-extension://${id}/${page}`;
  // Installing opened the welcome tab: close it, so it draws nothing while pages are measured.
  await (await welcomeTab(context, 20_000))?.close();
  const controller = await context.newPage();
  await controller.goto(url('options.html'));
  const send = (type: string, payload: unknown = {}) =>
    controller.evaluate(
      async ({ type, payload }) => {
        const answer = await chrome.runtime.sendMessage({ type, payload });
        if (!answer.ok) throw new Error(`${type}: ${answer.error.message}`);
        return answer.value;
      },
      { type, payload },
    );
  // Another service URL first, so Save is a real change: caches, snapshot and discovery report go.
  const saveAsNew = async () => {
    const other = sandbox.baseUrl.replace('127.0.0.1', 'localhost');
    await send('saveSettings', {
      serviceUrl: other,
      apiUrl: sandbox.apiUrl.replace('127.0.0.1', 'localhost'),
    });
    await send('saveSettings', { serviceUrl: sandbox.baseUrl, apiUrl: sandbox.apiUrl });
    await send('saveApiKey', { key: sandbox.demoKey });
  };
  await saveAsNew();
  await send('listPlaybooks', {});
  return { context, url, controller, send, saveAsNew };
}

export async function benchBrowser(
  extensionDir: string,
  sandbox: Sandbox,
  options: { runs?: number; memoryPasses?: number } = {},
): Promise<BrowserFigures> {
  // 30 pairs per condition: the median ratio's 95 % interval is then about ±0.1 on this machine.
  const runs = options.runs ?? 30;
  const { context, url, controller, send, saveAsNew } = await launchExtension(extensionDir, sandbox);
  try {
    const popupRequests: { url: string; type: string }[] = [];
    {
      const page = await context.newPage();
      page.on('request', (request) => {
        const address = new URL(request.url());
        if (address.protocol === 'chrome-extension:')
          popupRequests.push({ url: address.pathname, type: request.resourceType() });
      });
      await page.goto(url('popup.html'));
      await page.waitForFunction(() => (globalThis as { __bench?: Marks }).__bench?.firstRow);
      await page.close();
    }

    type Samples = Record<'rowPaint' | 'blankPaint' | 'rowDom' | 'blankDom' | 'shift', number[]>;
    const empty = (): Samples => ({ rowPaint: [], blankPaint: [], rowDom: [], blankDom: [], shift: [] });
    const samples = { warm: empty(), stopped: empty(), afterSave: empty() };
    const floors = { warm: empty(), stopped: empty() };
    // A tab closed just before the popup opens is a harness artefact (a real popup closes no
    // tab), and closing one is browser work at that moment: both tabs are closed after the pair,
    // with a moment before the next one.
    const measure = async (into: Samples, page: 'popup.html' | 'popup-floor.html' = 'popup.html') => {
      const opened: Page[] = [];
      const blank = await marks(context, url('blank.html'), ['firstRender', 'firstPaint'], false, opened);
      const popup = await marks(
        context,
        url(page),
        ['firstRow', 'firstRowPaint'],
        page === 'popup.html',
        opened,
      );
      await Promise.all(opened.map((page) => page.close()));
      await new Promise((resolve) => setTimeout(resolve, 250));
      into.blankDom.push(blank.firstRender!);
      into.blankPaint.push(blank.firstPaint!);
      into.rowDom.push(popup.firstRow!);
      into.rowPaint.push(popup.firstRowPaint!);
      into.shift.push(popup.layoutShift ?? 0);
    };
    // Each condition in a block of its own, the blank page measured beside the popup every time.
    // Warm means settled: the discovery run a first open defers (1.5 s) is over before it starts.
    // The floor's pairs follow the popup's, not interleaved: a page that just read the database
    // would keep it open for the next one.
    await send('runDiscovery', {});
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    for (let run = 0; run < runs; run++) await measure(samples.warm);
    for (let run = 0; run < runs; run++) await measure(floors.warm, 'popup-floor.html');
    for (let run = 0; run < runs; run++) {
      await stopWorker(context, url);
      await measure(samples.stopped);
    }
    for (let run = 0; run < runs; run++) {
      await stopWorker(context, url);
      await measure(floors.stopped, 'popup-floor.html');
    }
    for (let run = 0; run < runs; run++) {
      await saveAsNew();
      await measure(samples.afterSave);
    }
    // A page's first row against the blank page opened beside it, pair by pair.
    const againstBlank = (taken: Samples): FloorFigure => {
      const firstRowPaint = spread(taken.rowPaint);
      const blankFirstPaint = spread(taken.blankPaint);
      return {
        firstRowPaint,
        blankFirstPaint,
        ratio: firstRowPaint.median / blankFirstPaint.median,
        ratioInterval: medianRatioInterval(taken.rowPaint, taken.blankPaint),
      };
    };
    const condition = (taken: Samples, floor?: Samples): PageCondition => {
      const { firstRowPaint, blankFirstPaint, ratio, ratioInterval } = againstBlank(taken);
      const popupFirstRowInDom = spread(taken.rowDom);
      const blankInDom = spread(taken.blankDom);
      return {
        popupFirstRowPaint: firstRowPaint,
        blankFirstPaint,
        ratio,
        ratioInterval,
        pairedRatio: spread(taken.rowPaint.map((row, pair) => row / taken.blankPaint[pair])),
        pairedGap: spread(taken.rowPaint.map((row, pair) => row - taken.blankPaint[pair])),
        popupFirstRowInDom,
        blankInDom,
        domRatio: popupFirstRowInDom.median / blankInDom.median,
        layoutShift: spread(taken.shift),
        ...(floor ? { floor: againstBlank(floor) } : {}),
      };
    };

    const roundTrip = () =>
      controller.evaluate(async () => {
        const started = performance.now();
        const answer = await chrome.runtime.sendMessage({ type: 'getState', payload: {} });
        if (!answer.ok) throw new Error(answer.error.message);
        return performance.now() - started;
      });
    const coldStart: number[] = [];
    const warmAnswer: number[] = [];
    for (let run = 0; run < runs; run++) {
      warmAnswer.push(await roundTrip());
      await stopWorker(context, url);
      coldStart.push(await roundTrip());
    }

    // Memory: page the whole list through the worker, as "Load more" would, several times.
    await roundTrip();
    const cdp = await workerCdp(controller);
    await cdp.collectGarbage();
    const beforeBytes = await cdp.heapUsed();
    const afterPaging: number[] = [];
    const afterGc: number[] = [];
    let paged = { items: 0, messages: 0 };
    for (let pass = 0; pass < (options.memoryPasses ?? 3); pass++) {
      paged = await controller.evaluate(async () => {
        let cursor: string | null = null;
        let items = 0;
        let messages = 0;
        do {
          const answer = await chrome.runtime.sendMessage({
            type: 'listPlaybooks',
            payload: cursor ? { cursor } : {},
          });
          if (!answer.ok) throw new Error(answer.error.message);
          const page = answer.value as { items: unknown[]; nextCursor: string | null };
          items += page.items.length;
          messages++;
          cursor = page.nextCursor;
        } while (cursor && messages < 2000);
        return { items, messages };
      });
      afterPaging.push(await cdp.heapUsed());
      await cdp.collectGarbage();
      afterGc.push(await cdp.heapUsed());
    }
    await cdp.detach();

    return {
      warm: condition(samples.warm, floors.warm),
      workerStopped: condition(samples.stopped, floors.stopped),
      afterSave: condition(samples.afterSave),
      popupRequests,
      workerColdStartToAnswer: spread(coldStart),
      workerWarmAnswer: spread(warmAnswer),
      workerHeap: {
        playbooksPaged: paged.items,
        messages: paged.messages,
        beforeBytes,
        afterPagingBytes: spread(afterPaging),
        afterGcBytes: spread(afterGc),
      },
      notes: [
        'Pages are loaded in a tab (headless Chromium cannot open the action popup); times are ms from navigation start (performance.now).',
        "Paint (the goal): the blank page's first-contentful-paint; the popup's first row by Element Timing (renderTime of the row's title, attribute set as the row is inserted). In the DOM: MutationObserver time of the blank page's element and of the first row.",
        'Warm: worker running, list cached. Worker stopped: CDP ServiceWorker.stopAllWorkers before both pages open. After Save: the service URL and key were just saved anew (caches and snapshot cleared; Save starts the snapshot read) and the popup opens the moment Save answers.',
        'Blank page: blank.html, one element and no script, from the same extension (not in store builds), opened right before the popup under the same condition; ratio = popup median / blank median, with its 95 % bootstrap interval over the pairs; paired ratio = popup / blank within each pair.',
        "Floor: popup-floor.html, the popup's own snapshot read and its first row's title as a bare button (no Preact, no styles), in pairs of its own with the blank page after the popup's (so popup − floor is a difference of medians from two blocks, not a paired figure); not right after Save (no snapshot yet).",
        'Layout shift: the Layout Instability API\'s sum (without recent input) from open until the worker\'s answer replaced the saved copy ("Refreshing…" gone; at most 5 s).',
        'Worker heap: CDP Runtime.getHeapUsage on the worker target, after each full pass over the list and after a forced GC.',
      ],
    };
  } finally {
    await context.close();
  }
}
