/**
 * What a finance page pays for the content script, measured as a finance page feels it:
 * the same page in three browsers, without the extension, with it, and with a do-nothing content
 * script (the floor), opened in interleaved turns. Per sample, CDP `Performance.getMetrics` of
 * the page's target: ScriptDuration (all JavaScript on its main thread, every world included) and
 * TaskDuration (all main-thread tasks, wall time), and ThreadTime (the main thread's CPU time,
 * which other processes on a busy machine do not inflate), read once the page has loaded and the
 * extension's idle work (the offer, drawn when the browser is idle) is over. Figures are medians;
 * "added" is a difference of medians against the page without the extension.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../tests/e2e/chromium';
import { articlePage } from './article';
import { ms, spread, type Spread } from './stats';

/** A quote page of about 3 MB and 30,000 elements: header, price table, news list, footer. */
export function quotePage(elements = 30_000): string {
  const rows: string[] = [];
  // Each row is 10 elements: tr, 8 td and a link.
  for (let row = 0; rows.length * 10 < elements; row++)
    rows.push(
      `<tr><td>${row}</td><td>2025-01-${(row % 28) + 1}</td><td>1,184.${row % 100}</td><td>1,190.${row % 97}</td>` +
        `<td>1,170.${row % 89}</td><td>1,185.${row % 83}</td><td>${(row * 7919) % 100000}</td><td><a href="/n/${row}">NVDA session notes for day ${row} with a longer note text to weigh the page</a></td></tr>`,
    );
  return `<!doctype html><html><head><title>NVDA quote | Demo Markets</title></head><body>
<header><nav><a href="/">Home</a></nav></header><main><h1>NVIDIA Corporation (NASDAQ: NVDA)</h1>
<div>NVIDIA Corporation (NVDA) NASDAQ · $1,184.20 +35.61 (+3.10%)</div>
<table><tbody>${rows.join('\n')}</tbody></table></main><footer><p>Demo Markets</p></footer></body></html>`;
}

export interface PageCost {
  script: Spread;
  task: Spread;
  /** Main-thread CPU time (CDP ThreadTime). */
  cpu: Spread;
}

export interface ContentScriptFigures {
  pages: Record<
    string,
    {
      bytes: number;
      none: PageCost;
      extension: PageCost;
      floor: PageCost;
      compare?: PageCost;
      /** BENCH_CONTENT_STEPS=1: content scripts that each do a part of what the offer does. */
      steps?: Record<string, PageCost>;
    }
  >;
  /** How long each page is left to the extension's idle work before its metrics are read. */
  settleMs: number;
  notes: string[];
}

/**
 * An extension of one content script, `source`, on the bench's pages, run at `document_idle` as the
 * offer is. Each asks for `storage`, as the offer's extension does, so the floor and the steps
 * differ only in their script.
 */
function scriptExtension(name: string, source: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-floor-'));
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({
      manifest_version: 3,
      name,
      version: '1.0.0',
      permissions: ['storage'],
      content_scripts: [{ matches: ['http://127.0.0.1/demo/*'], js: ['script.js'], run_at: 'document_idle' }],
    }),
  );
  writeFileSync(join(dir, 'script.js'), source);
  return dir;
}

/** A do-nothing content script on the same pages: what any extension with a content script costs. */
const floorExtension = () => scriptExtension('Do-nothing content script', 'void 0;\n');

/** A constant offer-like button in a closed shadow root: no data, no i18n, no listeners. */
const SHADOW_BUTTON = `const host = document.createElement('x-offer');
host.attachShadow({ mode: 'closed' }).innerHTML =
  '<style>button{position:fixed;inset:auto 16px 16px auto;font:14px system-ui;padding:8px 12px}</style>' +
  '<button type="button">Turn this into a playbook</button>';
document.body.append(host);`;
const idle = (body: string) => `requestIdleCallback(() => {\n${body}\n}, { timeout: 2000 });\n`;

/**
 * The floor of drawing anything, and the offer's steps, each a content script of its own run when
 * the browser is idle (BENCH_CONTENT_STEPS=1), after the floor itself again (the run's noise):
 * appending one empty element, a plain button, the
 * same button in a closed shadow root, then in the top layer; and the one storage read.
 */
function stepExtensions(): Record<string, string> {
  return {
    // The same do-nothing script as the floor, in a browser of its own: how far two identical
    // conditions land apart in this run, the noise any other row must beat.
    'does nothing (the floor again)': scriptExtension('step', 'void 0;\n'),
    'appends one empty element': scriptExtension(
      'step',
      idle(`document.body.append(document.createElement('x-offer'));`),
    ),
    'draws a plain button': scriptExtension(
      'step',
      idle(`const button = document.createElement('button');
button.textContent = 'Turn this into a playbook';
button.style.cssText = 'position:fixed;inset:auto 16px 16px auto;font:14px system-ui;padding:8px 12px';
document.body.append(button);`),
    ),
    'draws it in a closed shadow root': scriptExtension('step', idle(SHADOW_BUTTON)),
    'draws it in the top layer too': scriptExtension(
      'step',
      idle(`${SHADOW_BUTTON}\nhost.setAttribute('popover', 'manual');\nhost.showPopover();`),
    ),
    'reads storage': scriptExtension('step', idle(`chrome.storage.local.get('dismissed');`)),
  };
}

async function launch(extensionDir?: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext('', {
    executablePath: findChromium(),
    headless: true,
    args: [
      ...CHROMIUM_ARGS,
      ...(extensionDir
        ? [`--disable-extensions-except=${extensionDir}`, `--load-extension=${extensionDir}`]
        : ['--disable-extensions']),
    ],
  });
}

/** Opens `url` in a new tab, leaves it `settleMs` after load, and returns its script and task time. */
async function sample(context: BrowserContext, url: string, settleMs: number) {
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForTimeout(settleMs);
    const { metrics } = await cdp.send('Performance.getMetrics');
    const value = (name: string) => (metrics.find((metric) => metric.name === name)?.value ?? 0) * 1000;
    return { script: value('ScriptDuration'), task: value('TaskDuration'), cpu: value('ThreadTime') };
  } finally {
    await page.close();
  }
}

export async function benchContentScript(
  extensionDir: string,
  {
    runs = 15,
    settleMs = 3000,
    compareDir,
    steps = false,
  }: {
    runs?: number;
    settleMs?: number;
    /** Another build, sampled in the same turns (BENCH_CONTENT_COMPARE). */ compareDir?: string;
    /** Also the offer's steps, each alone (BENCH_CONTENT_STEPS=1). */ steps?: boolean;
  } = {},
): Promise<ContentScriptFigures> {
  const bodies: Record<string, string> = {
    '40 KB article': articlePage(40_000),
    '3 MB quote page (30,000 elements)': quotePage(),
  };
  const paths = Object.keys(bodies).map((name, index) => [name, `/demo/page-${index}.html`] as const);
  const server = createServer((request, response) => {
    const found = paths.find(([, path]) => path === request.url);
    response.writeHead(found ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    response.end(found ? bodies[found[0]] : 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const floorDir = floorExtension();
  const stepDirs = steps ? stepExtensions() : {};
  type Condition = string;
  const conditions: Record<Condition, BrowserContext> = {
    none: await launch(),
    extension: await launch(extensionDir),
    floor: await launch(floorDir),
    ...(compareDir ? { compare: await launch(compareDir) } : {}),
  };
  for (const [step, dir] of Object.entries(stepDirs)) conditions[`step: ${step}`] = await launch(dir);
  const order = Object.keys(conditions);
  const contextOf = (condition: Condition) => conditions[condition];
  try {
    const pages: ContentScriptFigures['pages'] = {};
    for (const [name, path] of paths) {
      const url = `http://127.0.0.1:${address.port}${path}`;
      const taken = Object.fromEntries(
        order.map((c) => [c, { script: [] as number[], task: [] as number[], cpu: [] as number[] }]),
      );
      // A first, unrecorded turn each: caches and the extension's worker are warm for every sample.
      for (const condition of order) await sample(contextOf(condition), url, settleMs);
      for (let run = 0; run < runs; run++)
        for (let turn = 0; turn < order.length; turn++) {
          const condition = order[(run + turn) % order.length];
          const { script, task, cpu } = await sample(contextOf(condition), url, settleMs);
          taken[condition].script.push(script);
          taken[condition].task.push(task);
          taken[condition].cpu.push(cpu);
        }
      const cost = (condition: Condition): PageCost => ({
        script: spread(taken[condition].script),
        task: spread(taken[condition].task),
        cpu: spread(taken[condition].cpu),
      });
      pages[name] = {
        bytes: bodies[name].length,
        none: cost('none'),
        extension: cost('extension'),
        floor: cost('floor'),
        ...(compareDir ? { compare: cost('compare') } : {}),
        ...(steps
          ? { steps: Object.fromEntries(Object.keys(stepDirs).map((step) => [step, cost(`step: ${step}`)])) }
          : {}),
      };
    }
    return {
      pages,
      settleMs,
      notes: [
        'Three headless Chromium browsers: no extension, this build, and a do-nothing content script (the floor) on the same pages; samples taken in rotating order, a fresh tab each.',
        `ScriptDuration and TaskDuration: CDP Performance.getMetrics of the tab, ${settleMs} ms after load (the offer draws when the browser is idle, within that time; detection and capture load only when the user acts), medians; "added" is the median with minus the median without.`,
        'Not configured: with no service, the worker counts nothing; what the page pays is the same either way (the count is made in the worker).',
      ],
    };
  } finally {
    await Promise.all(order.map((condition) => contextOf(condition).close()));
    for (const dir of [floorDir, ...Object.values(stepDirs)]) rmSync(dir, { recursive: true, force: true });
    await new Promise((resolve) => server.close(resolve));
  }
}

export function printContentScript(figures: ContentScriptFigures, eagerGzip?: number): void {
  console.log(
    '\nWhat a finance page pays for the content script (goal: script ≤ +1.5 ms, task within 3 ms of the floor, ≤ 8 KB gzip eager)',
  );
  console.table(
    Object.fromEntries(
      Object.entries(figures.pages).map(([name, page]) => [
        name,
        {
          'script, none': ms(page.none.script.median),
          'script added': ms(page.extension.script.median - page.none.script.median),
          'script added, floor': ms(page.floor.script.median - page.none.script.median),
          'task added': ms(page.extension.task.median - page.none.task.median),
          'task added, floor': ms(page.floor.task.median - page.none.task.median),
          'task − floor': ms(page.extension.task.median - page.floor.task.median),
          'CPU added': ms(page.extension.cpu.median - page.none.cpu.median),
          'CPU − floor': ms(page.extension.cpu.median - page.floor.cpu.median),
          runs: page.none.script.runs,
        },
      ]),
    ),
  );
  const compared = Object.entries(figures.pages).filter(([, page]) => page.compare);
  if (compared.length > 0) {
    console.log('The other build (BENCH_CONTENT_COMPARE), sampled in the same turns:');
    console.table(
      Object.fromEntries(
        compared.map(([name, page]) => {
          const other = page.compare as PageCost;
          return [
            name,
            {
              'script added': ms(other.script.median - page.none.script.median),
              'task added': ms(other.task.median - page.none.task.median),
              'task − floor': ms(other.task.median - page.floor.task.median),
              'CPU added': ms(other.cpu.median - page.none.cpu.median),
              'CPU − floor': ms(other.cpu.median - page.floor.cpu.median),
            },
          ];
        }),
      ),
    );
  }
  for (const [name, page] of Object.entries(figures.pages)) {
    if (!page.steps) continue;
    console.log(`The offer's steps, each a content script alone (BENCH_CONTENT_STEPS=1), ${name}:`);
    console.table(
      Object.fromEntries(
        Object.entries(page.steps).map(([step, cost]) => [
          step,
          {
            'script added': ms(cost.script.median - page.none.script.median),
            'task − floor': ms(cost.task.median - page.floor.task.median),
            'CPU − floor': ms(cost.cpu.median - page.floor.cpu.median),
          },
        ]),
      ),
    );
  }
  if (eagerGzip !== undefined) console.log(`injected eagerly: ${(eagerGzip / 1024).toFixed(1)} KB gzip`);
  for (const note of figures.notes) console.log(`- ${note}`);
}
