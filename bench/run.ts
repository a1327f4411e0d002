/**
 * `npm run bench`: the project's performance figures, printed as a table and written to
 * bench/results.json. Figures, not assertions: a reader compares them with the budgets.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { measureBundles, type BundleFigure } from './bundles';

const OUTPUT = '.output/chrome-mv3';

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

function printBundles(figures: BundleFigure[]): void {
  const rows = figures.map((f) => ({
    entrypoint: f.entrypoint,
    files: f.files,
    raw: kb(f.rawBytes),
    gzip: kb(f.gzipBytes),
    budget: f.budgetGzipBytes ? kb(f.budgetGzipBytes) : '—',
    within: f.budgetGzipBytes ? (f.gzipBytes <= f.budgetGzipBytes ? 'yes' : 'OVER') : '—',
  }));
  console.log('\nBundle sizes per entrypoint (the file and everything it imports)');
  console.table(rows);
}

function main(): void {
  if (process.env.BENCH_REUSE_BUILD !== '1') execFileSync('npx', ['wxt', 'build'], { stdio: 'ignore' });
  const budgets = (
    JSON.parse(readFileSync('bench/budgets.json', 'utf8')) as { gzipBytes: Record<string, number> }
  ).gzipBytes;
  const bundles = measureBundles(OUTPUT, budgets);
  printBundles(bundles);
  mkdirSync('bench', { recursive: true });
  const results = { measuredAt: new Date().toISOString(), node: process.version, bundles };
  writeFileSync('bench/results.json', `${JSON.stringify(results, null, 2)}\n`);
  console.log('Written to bench/results.json');
}

main();
