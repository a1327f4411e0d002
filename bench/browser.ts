/**
 * Figures from the built extension in headless Chromium against a started sandbox: popup first
 * row beside a blank extension page (blank.html, non-store builds only) under the same
 * condition (warm, worker stopped, first open right after Save), the popup's requests,
 * service-worker cold start to the first answered message, and the worker's heap after paging
 * 10,000 playbooks through it.
 */
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../tests/e2e/chromium';
import type { Sandbox } from '../sandbox/server';
import { spread, type Spread } from './stats';

type Answer = { ok: true; value: unknown } | { ok: false; error: { message: string } };
declare const chrome: {
  runtime: { sendMessage(message: unknown): Promise<Answer> };
};

/** One condition: the popup's first row and the blank page's first element, opened the same way. */
export interface PageCondition {
  popupFirstRow: Spread;
  blankFirstRender: Spread;
  /** Popup median over blank median: the figure the goal (≤ 1.5) is about. */
  ratio: number;
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
 * Marks, in ms since navigation start, when the page first rendered and when the first playbook
 * row appeared. A string, not a function: tsx would wrap inner functions in helpers the page lacks.
 */
const INSTALL_MARKS = `(() => {
  const marks = {};
  globalThis.__bench = marks;
  new MutationObserver(() => {
    const now = performance.now();
    if (marks.firstRender === undefined && document.body && document.body.querySelector('main, h1, p, [role]'))
      marks.firstRender = now;
    if (marks.firstRow === undefined &&
        document.querySelector('[aria-label="Playbooks"] li, [aria-label="Playbooks"] [role="listitem"]'))
      marks.firstRow = now;
  }).observe(document, { childList: true, subtree: true });
})();`;

async function mark(
  context: BrowserContext,
  url: string,
  which: 'firstRender' | 'firstRow',
): Promise<number> {
  const page = await context.newPage();
  try {
    await page.goto(url);
    const handle = await page.waitForFunction(
      (name) => (globalThis as { __bench?: Record<string, number | undefined> }).__bench?.[name],
      which,
      { timeout: 15_000, polling: 5 },
    );
    return (await handle.jsonValue()) as number;
  } finally {
    await page.close();
  }
}

async function stopWorker(context: BrowserContext, url: (page: string) => string): Promise<void> {
  const page = await context.newPage();
  await page.goto(url('confirm.html'));
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

export async function benchBrowser(
  extensionDir: string,
  sandbox: Sandbox,
  options: { runs?: number; memoryPasses?: number } = {},
): Promise<BrowserFigures> {
  const runs = options.runs ?? 20;
  const context = await chromium.launchPersistentContext('', {
    executablePath: findChromium(),
    headless: true,
    args: [
      ...CHROMIUM_ARGS,
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
    ],
  });
  try {
    await context.addInitScript({ content: INSTALL_MARKS });
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    const id = new URL(worker.url()).host;
    const url = (page: string) => `chrome-extension://${id}/${page}`;
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

    const popupRequests: { url: string; type: string }[] = [];
    {
      const page = await context.newPage();
      page.on('request', (request) => {
        const address = new URL(request.url());
        if (address.protocol === 'chrome-extension:')
          popupRequests.push({ url: address.pathname, type: request.resourceType() });
      });
      await page.goto(url('popup.html'));
      await page.waitForFunction(() => (globalThis as { __bench?: { firstRow?: number } }).__bench?.firstRow);
      await page.close();
    }

    const samples = { warm: [[], []], stopped: [[], []], afterSave: [[], []] } as Record<
      'warm' | 'stopped' | 'afterSave',
      [number[], number[]]
    >;
    const measure = async (into: [number[], number[]]) => {
      into[1].push(await mark(context, url('blank.html'), 'firstRender'));
      into[0].push(await mark(context, url('popup.html'), 'firstRow'));
    };
    for (let run = 0; run < runs; run++) {
      await measure(samples.warm);
      await stopWorker(context, url);
      await measure(samples.stopped);
      await saveAsNew();
      await measure(samples.afterSave);
    }
    const condition = ([popup, blank]: [number[], number[]]): PageCondition => {
      const popupFirstRow = spread(popup);
      const blankFirstRender = spread(blank);
      return { popupFirstRow, blankFirstRender, ratio: popupFirstRow.median / blankFirstRender.median };
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
      warm: condition(samples.warm),
      workerStopped: condition(samples.stopped),
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
        'Pages are loaded in a tab (headless Chromium cannot open the action popup); times are ms from navigation start (performance.now) to the first rendered element or first playbook row.',
        'Warm: worker running, list cached. Worker stopped: CDP ServiceWorker.stopAllWorkers before both pages open. After Save: the service URL and key were just saved anew (caches, snapshot and discovery report cleared).',
        'Blank page: blank.html, one element and no script, from the same extension (not in store builds), opened right before the popup under the same condition; ratio = popup median / blank median.',
        'Worker heap: CDP Runtime.getHeapUsage on the worker target, after each full pass over the list and after a forced GC.',
      ],
    };
  } finally {
    await context.close();
  }
}
