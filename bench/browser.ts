/**
 * Figures from the built extension in headless Chromium against a started sandbox: popup first
 * row (cold and warm) beside an empty extension page, service-worker cold start to the first
 * answered message, and the worker's heap after paging 10,000 playbooks through it.
 */
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../tests/e2e/chromium';
import type { Sandbox } from '../sandbox/server';
import { spread, type Spread } from './stats';

type Answer = { ok: true; value: unknown } | { ok: false; error: { message: string } };
declare const chrome: {
  runtime: { sendMessage(message: unknown): Promise<Answer> };
};

export interface BrowserFigures {
  popupFirstRowCold: Spread;
  popupFirstRowWarm: Spread;
  emptyPageFirstRender: Spread;
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
    await send('saveSettings', { serviceUrl: sandbox.baseUrl, apiUrl: sandbox.apiUrl });
    await send('saveApiKey', { key: sandbox.demoKey });
    await send('listPlaybooks', {});

    const warm: number[] = [];
    const cold: number[] = [];
    const empty: number[] = [];
    for (let run = 0; run < runs; run++) {
      empty.push(await mark(context, url('confirm.html'), 'firstRender'));
      warm.push(await mark(context, url('popup.html'), 'firstRow'));
      await stopWorker(context, url);
      cold.push(await mark(context, url('popup.html'), 'firstRow'));
    }

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
      popupFirstRowCold: spread(cold),
      popupFirstRowWarm: spread(warm),
      emptyPageFirstRender: spread(empty),
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
        'Cold popup: the service worker is stopped (CDP ServiceWorker.stopAllWorkers) before the popup opens; warm: worker running, read cache filled.',
        'Empty page: confirm.html without a draft, to its first rendered element.',
        'Worker heap: CDP Runtime.getHeapUsage on the worker target, after each full pass over the list and after a forced GC.',
      ],
    };
  } finally {
    await context.close();
  }
}
