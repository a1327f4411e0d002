/**
 * `npm run bench`: the project's performance figures, printed as tables and written to
 * bench/results.json. Figures, not assertions: a reader compares them with the budgets.
 *
 * BENCH_REUSE_BUILD=1 skips the build; WXT_OUT_DIR picks the build folder; BENCH_RUNS sets the
 * pairs per condition of the browser figures (default 30); BENCH_SKIP_BROWSER=1 leaves out the browser.
 * BENCH_ONLY_PARSERS=1 prints the parser figures alone (no build, no sandbox). BENCH_ONLY=paging
 * prints the paging figures alone (no build, no browser; BENCH_PAGING_RUNS pairs, default 31);
 * BENCH_ONLY=browser the browser figures alone; BENCH_ONLY=chart the equity chart's figures alone (no build,
 * no sandbox); BENCH_ONLY=popup what the popup waits on with the worker running, just stopped and stopped
 * for a while (bench/popupWake.ts); BENCH_ONLY=content what a finance page pays for the content script
 * alone (BENCH_CONTENT_RUNS samples per condition, default 15; BENCH_CONTENT_COMPARE=<dir> samples another
 * build, such as main's, in the same turns; BENCH_CONTENT_STEPS=1 adds the offer's steps, each a content
 * script alone: a storage read, a constant button, in the top layer, before the first paint); BENCH_ONLY=idb what each step writes to the extension's
 * IndexedDB folder and what a reopen then costs (bench/idbWrites.ts; BENCH_IDB_FILLER_KB=0,1024,... then
 * writes that much filler, cumulative, and times BENCH_IDB_REOPENS reopens after each); BENCH_ONLY=reminders
 * the catalyst reminder check of 200 catalysts (bench/reminders.ts; no build, no sandbox); BENCH_ONLY=returns
 * the popup's first row with and without the figures since capture (bench/popupReturns.ts). With BENCH_ONLY,
 * results.json is left as it was.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { setLogSink } from '@/lib/log';
import { startSandbox } from '../sandbox/server';
import { benchArticle } from './article';
import { benchBrowser, type BrowserFigures } from './browser';
import { benchChart, type ChartFigures } from './chart';
import { benchPopupWake, DATABASE_IDLE_MS, type WakeCondition } from './popupWake';
import { benchIdbWrites } from './idbWrites';
import { benchContentScript, printContentScript, type ContentScriptFigures } from './contentScript';
import { measureBundles, type BundleFigure } from './bundles';
import { composition, type ChunkModules, type CompositionRow } from './moduleSizes';
import { benchDiscovery, benchPaging, type DiscoveryFigures, type PagingFigures } from './client';
import { benchParsers, printParsers, type ParserFigure } from './parsers';
import { benchPopupReturns, type PopupReturnsFigures } from './popupReturns';
import { benchReminders, type ReminderFigures } from './reminders';
import { describe, kb, ms, type Spread } from './stats';

const OUTPUT = `${process.env.WXT_OUT_DIR ?? '.output'}/chrome-mv3`;
/** Written by bench/moduleSizes.ts during the bench's build; beside, not inside, the extension folder. */
const MODULE_SIZES = `${process.env.WXT_OUT_DIR ?? '.output'}/module-sizes.json`;

function printComposition(rows: CompositionRow[], background?: BundleFigure, wake?: BrowserFigures): void {
  console.log(
    '\nThe background by package / lib folder, over every file it loads (rollup renderedLength: after tree-shaking, before minifying)',
  );
  console.table(
    rows.slice(0, 15).map((row) => ({
      group: row.group,
      rendered: kb(row.renderedBytes),
      share: `${(row.share * 100).toFixed(1)}%`,
    })),
  );
  if (background) {
    console.log('The files it loads');
    console.table(
      background.fileFigures.map((file) => ({
        file: file.fileName,
        raw: kb(file.rawBytes),
        gzip: kb(file.gzipBytes),
      })),
    );
  }
  if (wake)
    console.log(
      `worker wake → first answered message: median ${ms(wake.workerColdStartToAnswer.median)} (p95 ${ms(wake.workerColdStartToAnswer.p95)})`,
    );
}

function printBundles(figures: BundleFigure[]): void {
  const rows = figures.map((f) => ({
    entrypoint: f.entrypoint,
    files: f.files,
    raw: kb(f.rawBytes),
    gzip: kb(f.gzipBytes),
    goal: f.goalGzipBytes ? kb(f.goalGzipBytes) : '—',
    budget: f.budgetGzipBytes ? kb(f.budgetGzipBytes) : '—',
    within: f.budgetGzipBytes ? (f.gzipBytes <= f.budgetGzipBytes ? 'yes' : 'OVER') : '—',
  }));
  console.log('\nBundle sizes per entrypoint (the file and everything it imports)');
  console.table(rows);
}

function printPaging(figures: PagingFigures): void {
  console.log(
    `\nPaging ${figures.playbooks} playbooks (${figures.pages} pages of 100) in Node: API client vs raw fetch loop`,
  );
  console.table({
    client: describe(figures.client),
    'raw fetch': describe(figures.rawFetch),
    'client, CPU time': describe(figures.clientCpu),
    'raw fetch, CPU time': describe(figures.rawFetchCpu),
  });
  console.log(
    `ratio client / raw (medians): ${figures.ratio.toFixed(2)}; per back-to-back pair: median ${figures.pairedRatio.median.toFixed(2)}, spread ${figures.pairedRatio.min.toFixed(2)} – ${figures.pairedRatio.max.toFixed(2)} (${figures.pairedRatio.runs} pairs); in CPU time: ${figures.cpuRatio.toFixed(2)}`,
  );
  console.log(
    `load average (1 min) before / after: ${figures.loadAverage.map((load) => load.toFixed(1)).join(' / ')} on ${availableParallelism()} cores`,
  );
}

function printDiscovery(figures: DiscoveryFigures): void {
  console.log('\nDiscovery: cold (empty cache) vs warm (ETag revalidation)');
  const row = (pass: DiscoveryFigures['cold'], time: Spread) => ({
    requests: pass.requests,
    '200': pass.ok200,
    '304': pass.notModified304,
    downloaded: kb(pass.bytes),
    ...describe(time),
  });
  console.table({ cold: row(figures.cold, figures.coldMs), warm: row(figures.warm, figures.warmMs) });
  console.log(
    `saved by 304s: ${figures.bodiesSaved} bodies, ${kb(figures.bytesSaved)} per run (requests are still made, answers carry no body)`,
  );
}

function printBrowser(figures: BrowserFigures): void {
  console.log(
    `\nExtension in headless Chromium: the popup's first row against a blank extension page (goals: paired gap ≤ 17 ms, one frame; paint ≤ 1.5×), ${figures.warm.pairedGap.runs} pairs per condition`,
  );
  const conditions = {
    'worker running, list cached': figures.warm,
    'worker stopped': figures.workerStopped,
    'first open right after Save': figures.afterSave,
  };
  const cell = (figure: Spread) => `${ms(figure.median)} (p95 ${ms(figure.p95)})`;
  console.table(
    Object.fromEntries(
      Object.entries(conditions).map(([name, figure]) => [
        name,
        {
          'popup first row painted': cell(figure.popupFirstRowPaint),
          'blank page painted': cell(figure.blankFirstPaint),
          'gap (row − blank), paired median [min–max]': `${ms(figure.pairedGap.median)} [${ms(figure.pairedGap.min)}–${ms(figure.pairedGap.max)}]`,
          ratio: `${figure.ratio.toFixed(2)}×`,
          'ratio, 95 % interval': `${figure.ratioInterval.low.toFixed(2)} – ${figure.ratioInterval.high.toFixed(2)}`,
          'paired ratio (median)': `${figure.pairedRatio.median.toFixed(2)}×`,
          'row in DOM': ms(figure.popupFirstRowInDom.median),
          'blank in DOM': ms(figure.blankInDom.median),
          'DOM ratio': `${figure.domRatio.toFixed(2)}×`,
          'layout shift (max)': figure.layoutShift.max.toFixed(4),
        },
      ]),
    ),
  );
  console.log(
    "\nThe popup's floor: popup-floor.html, its snapshot read and one bare row (no Preact, no styles), against the blank page",
  );
  console.table(
    Object.fromEntries(
      Object.entries(conditions).flatMap(([name, figure]) =>
        figure.floor
          ? [
              [
                name,
                {
                  'floor first row painted': cell(figure.floor.firstRowPaint),
                  'blank page painted': cell(figure.floor.blankFirstPaint),
                  'floor ratio': `${figure.floor.ratio.toFixed(2)}×`,
                  'ratio, 95 % interval': `${figure.floor.ratioInterval.low.toFixed(2)} – ${figure.floor.ratioInterval.high.toFixed(2)}`,
                  'popup row − floor row (medians)': ms(
                    figure.popupFirstRowPaint.median - figure.floor.firstRowPaint.median,
                  ),
                },
              ],
            ]
          : [],
      ),
    ),
  );
  const scripts = figures.popupRequests.filter((request) => request.type === 'script').length;
  const styles = figures.popupRequests.filter((request) => request.type === 'stylesheet').length;
  console.log(`Popup requests on open: ${scripts} script(s), ${styles} stylesheet(s)`);
  console.table(figures.popupRequests);
  console.table({
    'worker cold start → first answer': describe(figures.workerColdStartToAnswer),
    'worker warm message round trip': describe(figures.workerWarmAnswer),
  });
  const heap = figures.workerHeap;
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
  console.log(
    `\nService-worker heap: ${mb(heap.beforeBytes)} before; paging ${heap.playbooksPaged} playbooks in ${heap.messages} messages per pass`,
  );
  console.table({
    'after a pass': describe(heap.afterPagingBytes, mb),
    'after a pass and GC': describe(heap.afterGcBytes, mb),
  });
  for (const note of figures.notes) console.log(`- ${note}`);
}

/** A sandbox seeded like the full bench's: 10,000 playbooks, a quota the walks never reach. */
function benchSandbox() {
  return startSandbox({ port: 0, db: ':memory:', seed: 10_000, quiet: true, rateQuota: 1_000_000 });
}

function printChart(figures: ChartFigures): void {
  console.log(
    `\nThe equity chart in headless Chromium: ${figures.points} points × ${figures.lines} lines (frame budget ${figures.frameBudgetMs} ms)`,
  );
  console.table({
    'render + style + layout': describe(figures.renderAndLayout),
    'render → next frame': describe(figures.toNextFrame),
    'keyboard step (readout)': describe(figures.keyboardStep),
  });
}

function printReminders(figures: ReminderFigures): void {
  console.log(
    `\nThe reminder check (lib/catalysts/reminders.ts): ${figures.catalysts} catalysts, target under ${figures.budgetMs} ms of worker time`,
  );
  const against = (figure: Spread) => ({
    ...describe(figure),
    'median within target': figure.median < figures.budgetMs ? 'yes' : 'NO',
  });
  console.table({
    'first check (own zone, cold process)': { median: ms(figures.firstCheckMs) },
    'first check in a named zone (builds its formatter)': { median: ms(figures.firstNamedZoneCheckMs) },
    'every later check (rules only)': describe(figures.warm),
    [`worker check, the record carried from alarm to alarm (${figures.workerChecksShowing} of ${figures.workerCheck.runs} showed and wrote)`]:
      against(figures.workerCheck),
    [`worker check, the record at its bound (${figures.recordBound.toLocaleString('en')} entries), written every time`]:
      against(figures.workerCheckAtBound),
  });
}

function printPopupReturns(figures: PopupReturnsFigures): void {
  const runs = figures.withFigures.runs;
  console.log(
    `\nThe popup's first row with its figures since capture against without them (issue 32: no slower than before), ${runs} pairs, worker running, list cached`,
  );
  console.table({
    'with figures (the record holds them)': describe(figures.withFigures),
    'without (the record before issue 32)': describe(figures.withoutFigures),
    'with − without, pair by pair': describe(figures.pairedDifference),
  });
  console.log(
    `ratio of medians ${figures.ratio.toFixed(2)}× (95 % interval ${figures.ratioInterval.low.toFixed(2)} – ${figures.ratioInterval.high.toFixed(2)}): ${figures.ratioInterval.low > 1 ? 'SLOWER with the figures' : 'no slower measured'}`,
  );
  console.log(
    `first renders holding figures: with ${figures.withShowingFigures}/${runs}, without ${figures.withoutShowingFigures}/${runs} (${figures.figuresSaved} figures saved)`,
  );
}

async function runPopupReturns(): Promise<PopupReturnsFigures> {
  const sandbox = await benchSandbox();
  try {
    const runs = process.env.BENCH_RUNS ? Number(process.env.BENCH_RUNS) : 30;
    return await benchPopupReturns(resolve(OUTPUT), sandbox, runs);
  } finally {
    await sandbox.close();
  }
}

async function main(): Promise<void> {
  // The library logs every response; the bench measures the work, not the console.
  setLogSink(() => undefined);
  if (process.env.BENCH_ONLY === 'chart') {
    printChart(await benchChart());
    return;
  }
  if (process.env.BENCH_ONLY === 'reminders') {
    printReminders(benchReminders());
    return;
  }
  if (process.env.BENCH_ONLY === 'returns') {
    if (process.env.BENCH_REUSE_BUILD !== '1') execFileSync('npx', ['wxt', 'build'], { stdio: 'ignore' });
    printPopupReturns(await runPopupReturns());
    return;
  }
  if (process.env.BENCH_ONLY === 'paging') {
    const sandbox = await benchSandbox();
    try {
      printPaging(await benchPaging(sandbox));
    } finally {
      await sandbox.close();
    }
    return;
  }
  if (process.env.BENCH_ONLY === 'idb') {
    if (process.env.BENCH_REUSE_BUILD !== '1') execFileSync('npx', ['wxt', 'build'], { stdio: 'ignore' });
    const sandbox = await benchSandbox();
    try {
      const fillerKb = (process.env.BENCH_IDB_FILLER_KB ?? '').split(',').filter(Boolean).map(Number);
      const reopensPerSize = process.env.BENCH_IDB_REOPENS
        ? Number(process.env.BENCH_IDB_REOPENS)
        : undefined;
      const figures = await benchIdbWrites(resolve(OUTPUT), sandbox, { fillerKb, reopensPerSize });
      console.log("\nThe extension's IndexedDB folder after each step (bytes on disk)");
      console.table(
        figures.steps.map(({ step, bytes, grown, logGrown, blobGrown }) => ({
          step,
          folder: kb(bytes),
          grown: kb(grown),
          'of which log (replayed)': kb(logGrown),
          'blob files': kb(blobGrown),
        })),
      );
      console.log('Records new or changed per step (JSON characters; the values are V8-serialised on disk)');
      console.table(
        figures.steps.flatMap(({ step, changed }) =>
          changed.map((record) => ({
            step,
            store: record.store,
            key: record.key.slice(0, 60),
            chars: record.chars,
          })),
        ),
      );
      console.log('Files at the end:');
      console.table(figures.steps.at(-1)?.files ?? []);
      console.log(
        `Blank page reopening the database after the worker stopped and ${DATABASE_IDLE_MS} ms idle: median ${ms(figures.reopen.median)} (p95 ${ms(figures.reopen.p95)}, ${figures.reopen.runs} runs)`,
      );
      if (figures.bySize.length > 0) {
        console.log('The same reopen after more was written to the origin (BENCH_IDB_FILLER_KB, cumulative)');
        console.table(
          figures.bySize.map((row) => ({
            'filler written': kb(row.fillerKb * 1024),
            'log (replayed)': kb(row.logBytes),
            'tables (.ldb)': kb(row.tableBytes),
            'reopen median': ms(row.reopen.median),
            'min–max': `${ms(row.reopen.min)}–${ms(row.reopen.max)}`,
          })),
        );
      }
    } finally {
      await sandbox.close();
    }
    return;
  }
  if (process.env.BENCH_ONLY === 'popup') {
    if (process.env.BENCH_REUSE_BUILD !== '1') execFileSync('npx', ['wxt', 'build'], { stdio: 'ignore' });
    const sandbox = await benchSandbox();
    try {
      const runs = process.env.BENCH_RUNS ? Number(process.env.BENCH_RUNS) : 30;
      const figures = await benchPopupWake(resolve(OUTPUT), sandbox, runs);
      console.log("\nThe popup's first row against the blank page, pair by pair (goal: gap ≤ 17 ms)");
      console.table(
        Object.fromEntries(
          Object.entries(figures.popup).map(([condition, figure]) => [
            condition,
            {
              'gap (row − blank), median [min–max]': `${ms(figure.gap.median)} [${ms(figure.gap.min)}–${ms(figure.gap.max)}]`,
              'row paint': ms(figure.rowPaint.median),
              'blank paint': ms(figure.blankPaint.median),
              'first frames read from the database': `${figure.databaseReads} of ${figure.gap.runs}`,
              'database open (asked → opened)': figure.dbOpen
                ? `${ms(figure.dbOpen.median)} (p95 ${ms(figure.dbOpen.p95)})`
                : '—',
              'opened → row in DOM': figure.openToRow ? ms(figure.openToRow.median) : '—',
              'blank page opening the database (same conditions)': `${ms(figures.blankDatabaseOpen[condition as WakeCondition].median)} (${figures.blankDatabaseOpen[condition as WakeCondition].runs} runs)`,
            },
          ]),
        ),
      );
      console.log(`Extension origin's storage at the end: ${kb(figures.storageBytes)}`);
    } finally {
      await sandbox.close();
    }
    return;
  }
  const onlyBrowser = process.env.BENCH_ONLY === 'browser';
  const onlyContent = process.env.BENCH_ONLY === 'content';
  const contentRuns = {
    ...(process.env.BENCH_CONTENT_RUNS ? { runs: Number(process.env.BENCH_CONTENT_RUNS) } : {}),
    // Another build's output folder (e.g. main's .output/chrome-mv3), sampled in the same turns.
    ...(process.env.BENCH_CONTENT_COMPARE ? { compareDir: resolve(process.env.BENCH_CONTENT_COMPARE) } : {}),
    // The offer's steps, each a content script alone: what drawing anything costs a page.
    steps: process.env.BENCH_CONTENT_STEPS === '1',
  };
  if (onlyContent) {
    if (process.env.BENCH_REUSE_BUILD !== '1') execFileSync('npx', ['wxt', 'build'], { stdio: 'ignore' });
    const eager = measureBundles(OUTPUT, {}).find((figure) => figure.entrypoint === 'finance');
    printContentScript(await benchContentScript(resolve(OUTPUT), contentRuns), eager?.gzipBytes);
    return;
  }
  const parsers: ParserFigure[] = onlyBrowser ? [] : await benchParsers();
  if (!onlyBrowser) printParsers(parsers);
  if (process.env.BENCH_ONLY_PARSERS === '1') return;
  if (process.env.BENCH_REUSE_BUILD !== '1') {
    rmSync(MODULE_SIZES, { force: true });
    execFileSync('npx', ['wxt', 'build'], {
      stdio: 'ignore',
      env: { ...process.env, BENCH_MODULE_SIZES: resolve(MODULE_SIZES) },
    });
  }
  const { gzipBytes: budgets, goalGzipBytes: goals } = JSON.parse(
    readFileSync('bench/budgets.json', 'utf8'),
  ) as {
    gzipBytes: Record<string, number>;
    goalGzipBytes?: Record<string, number>;
  };
  const bundles = measureBundles(OUTPUT, budgets, goals);
  const background = bundles.find((figure) => figure.entrypoint === 'background');
  const backgroundComposition =
    existsSync(MODULE_SIZES) && background
      ? composition(
          JSON.parse(readFileSync(MODULE_SIZES, 'utf8')) as ChunkModules[],
          background.fileFigures.map((file) => file.fileName),
        )
      : [];
  if (!onlyBrowser) {
    printBundles(bundles);
    benchArticle(OUTPUT);
  }

  const sandbox = await benchSandbox();
  const pageRuns = process.env.BENCH_RUNS ? { runs: Number(process.env.BENCH_RUNS) } : {};
  try {
    if (onlyBrowser) {
      printBrowser(await benchBrowser(resolve(OUTPUT), sandbox, pageRuns));
      return;
    }
    const paging = await benchPaging(sandbox);
    printPaging(paging);
    const discovery = await benchDiscovery(sandbox);
    printDiscovery(discovery);
    const reminders = benchReminders();
    printReminders(reminders);
    let browser: BrowserFigures | undefined;
    let chart: ChartFigures | undefined;
    let contentScript: ContentScriptFigures | undefined;
    let popupReturns: PopupReturnsFigures | undefined;
    if (process.env.BENCH_SKIP_BROWSER !== '1') {
      browser = await benchBrowser(resolve(OUTPUT), sandbox, pageRuns);
      printBrowser(browser);
      popupReturns = await benchPopupReturns(resolve(OUTPUT), sandbox, pageRuns.runs);
      printPopupReturns(popupReturns);
      chart = await benchChart();
      printChart(chart);
      contentScript = await benchContentScript(resolve(OUTPUT), contentRuns);
      printContentScript(contentScript, bundles.find((figure) => figure.entrypoint === 'finance')?.gzipBytes);
    }
    if (backgroundComposition.length > 0) printComposition(backgroundComposition, background, browser);
    else
      console.log(`\n(no ${MODULE_SIZES}: build without BENCH_REUSE_BUILD=1 for the background composition)`);
    mkdirSync('bench', { recursive: true });
    const results = {
      measuredAt: new Date().toISOString(),
      node: process.version,
      bundles,
      backgroundComposition,
      parsers,
      paging,
      discovery,
      reminders,
      browser,
      popupReturns,
      chart,
      contentScript,
    };
    writeFileSync('bench/results.json', `${JSON.stringify(results, null, 2)}\n`);
    console.log('\nWritten to bench/results.json');
  } finally {
    await sandbox.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
