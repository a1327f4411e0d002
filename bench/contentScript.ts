/**
 * What a finance page pays for the content script (issue 23), measured the way the issue does:
 * the same page in three browsers, without the extension, with it, and with a do-nothing content
 * script (the floor), opened in interleaved turns. Per sample, CDP `Performance.getMetrics` of
 * the page's target: ScriptDuration (all JavaScript on its main thread, every world included) and
 * TaskDuration (all main-thread tasks), read once the page has loaded and the extension's idle
 * work (ticker detection, imported then) is over. Figures are medians; "added" is a difference
 * of medians against the page without the extension.
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
}

export interface ContentScriptFigures {
  pages: Record<string, { bytes: number; none: PageCost; extension: PageCost; floor: PageCost }>;
  /** How long each page is left to the extension's idle work before its metrics are read. */
  settleMs: number;
  notes: string[];
}

/** A do-nothing content script on the same pages: what any extension with a content script costs. */
function floorExtension(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-floor-'));
  writeFileSync(
    join(dir, 'manifest.json'),
    JSON.stringify({
      manifest_version: 3,
      name: 'Do-nothing content script',
      version: '1.0.0',
      content_scripts: [{ matches: ['http://127.0.0.1/demo/*'], js: ['noop.js'], run_at: 'document_idle' }],
    }),
  );
  writeFileSync(join(dir, 'noop.js'), 'void 0;\n');
  return dir;
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
    return { script: value('ScriptDuration'), task: value('TaskDuration') };
  } finally {
    await page.close();
  }
}

export async function benchContentScript(
  extensionDir: string,
  { runs = 15, settleMs = 3000 }: { runs?: number; settleMs?: number } = {},
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
  const conditions = {
    none: await launch(),
    extension: await launch(extensionDir),
    floor: await launch(floorDir),
  };
  type Condition = keyof typeof conditions;
  const order = Object.keys(conditions) as Condition[];
  try {
    const pages: ContentScriptFigures['pages'] = {};
    for (const [name, path] of paths) {
      const url = `http://127.0.0.1:${address.port}${path}`;
      const taken = Object.fromEntries(
        order.map((c) => [c, { script: [] as number[], task: [] as number[] }]),
      );
      // A first, unrecorded turn each: caches and the extension's worker are warm for every sample.
      for (const condition of order) await sample(conditions[condition], url, settleMs);
      for (let run = 0; run < runs; run++)
        for (let turn = 0; turn < order.length; turn++) {
          const condition = order[(run + turn) % order.length];
          const { script, task } = await sample(conditions[condition], url, settleMs);
          taken[condition].script.push(script);
          taken[condition].task.push(task);
        }
      const cost = (condition: Condition): PageCost => ({
        script: spread(taken[condition].script),
        task: spread(taken[condition].task),
      });
      pages[name] = {
        bytes: bodies[name].length,
        none: cost('none'),
        extension: cost('extension'),
        floor: cost('floor'),
      };
    }
    return {
      pages,
      settleMs,
      notes: [
        'Three headless Chromium browsers: no extension, this build, and a do-nothing content script (the floor) on the same pages; samples taken in rotating order, a fresh tab each.',
        `ScriptDuration and TaskDuration: CDP Performance.getMetrics of the tab, ${settleMs} ms after load (the offer draws and ticker detection runs when the browser is idle, within that time), medians; "added" is the median with minus the median without.`,
        'Not configured: with no service, the worker counts nothing; what the page pays is the same either way (the count is made in the worker).',
      ],
    };
  } finally {
    await Promise.all(Object.values(conditions).map((context) => context.close()));
    rmSync(floorDir, { recursive: true, force: true });
    await new Promise((resolve) => server.close(resolve));
  }
}

export function printContentScript(figures: ContentScriptFigures, eagerGzip?: number): void {
  console.log(
    '\nWhat a finance page pays for the content script (issue 23 goal: script ≤ +1.5 ms, task within 3 ms of the floor, ≤ 8 KB gzip eager)',
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
          runs: page.none.script.runs,
        },
      ]),
    ),
  );
  if (eagerGzip !== undefined) console.log(`injected eagerly: ${(eagerGzip / 1024).toFixed(1)} KB gzip`);
  for (const note of figures.notes) console.log(`- ${note}`);
}
