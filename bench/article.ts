/**
 * The article capture: Readability's extraction time on a 1 MB article page, in Node
 * with happy-dom (no browser), and the gzipped bytes of the content script every finance page
 * loads against the extractor it imports only on a click (what loading it eagerly would add).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Window } from 'happy-dom';
import { buildArticleDraft } from '@/lib/finance/capture';
import { buildDraft } from '@/lib/finance/draft';
import { describe, kb, spread, type Spread } from './stats';

export interface ArticleFigures {
  pageBytes: number;
  paragraphs: number;
  /** buildArticleDraft: Readability on a clone, then the draft. */
  extraction: Spread;
  /** buildDraft without the article: what a page Readability cannot read still gets. */
  lightDraft: Spread;
  contentScriptGzip?: number;
  extractorGzip?: number;
}

const PARAGRAPH =
  'Nvidia (NASDAQ: NVDA) said data-centre revenue kept compounding as hyperscalers extended their capital spending, while rival AMD won early orders and analysts debated how long gross margins can hold at these levels.';

/** An article page of about `bytes`: quote header, byline, share bar, long body, related list, sidebar. */
export function articlePage(bytes = 1_000_000): string {
  const head = `<!doctype html><html><head><title>Nvidia rallies | Demo Markets</title></head><body>
<header><nav><a href="/">Home</a> <a href="/markets">Markets</a></nav></header><main><article>
<div>NVIDIA Corporation (NVDA) NASDAQ · $1,184.20 +35.61 (+3.10%)</div>
<h1>Nvidia rallies as data-centre sales double</h1><p>By Jane Doe</p><div>Share · Tweet · Email</div>`;
  const tail = `<h2>Related</h2><ul><li><a href="/a">Another story about chips and more chips</a></li></ul>
</article></main><aside><p><a href="/t">Trending: Apple (NASDAQ: AAPL) slips</a></p></aside></body></html>`;
  const body: string[] = [];
  let length = head.length + tail.length;
  for (let n = 0; length < bytes; n++) {
    const paragraph = `<p>${n}. ${PARAGRAPH}</p>\n`;
    body.push(paragraph);
    length += paragraph.length;
  }
  return head + body.join('') + tail;
}

/** Times `work` on a freshly parsed page per run; parsing is the browser's work, not timed. */
function time(runs: number, parse: () => Document, work: (document: Document) => void): Spread {
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const document = parse();
    const started = performance.now();
    work(document);
    samples.push(performance.now() - started);
  }
  return spread(samples);
}

function gzipOf(file: string): number | undefined {
  return existsSync(file) ? gzipSync(readFileSync(file)).length : undefined;
}

export function benchArticle(outputDir?: string, runs = 5): ArticleFigures {
  const html = articlePage();
  const url = 'https://news.example/nvda-rallies';
  const window = new Window({ url });
  const fresh = () => new window.DOMParser().parseFromString(html, 'text/html') as unknown as Document;
  const probe = buildArticleDraft({ url, document: fresh(), selection: '' });
  const figures: ArticleFigures = {
    pageBytes: html.length,
    paragraphs: probe.thesis.split('\n\n').length,
    extraction: time(runs, fresh, (document) => void buildArticleDraft({ url, document, selection: '' })),
    lightDraft: time(runs, fresh, (document) => void buildDraft({ url, document })),
    contentScriptGzip: outputDir ? gzipOf(join(outputDir, 'finance.js')) : undefined,
    extractorGzip: outputDir ? gzipOf(join(outputDir, 'article-capture.js')) : undefined,
  };
  printArticle(figures);
  void window.happyDOM.close();
  return figures;
}

export function printArticle(figures: ArticleFigures): void {
  console.log(
    `\nArticle capture on a ${kb(figures.pageBytes)} article page (Node, happy-dom; parsing not timed)`,
  );
  console.table({
    'Readability draft (on click)': describe(figures.extraction),
    'light draft (no article found)': describe(figures.lightDraft),
  });
  const size = (bytes?: number) => (bytes === undefined ? 'not built' : kb(bytes));
  console.log(
    `content script on every finance page: ${size(figures.contentScriptGzip)} gzip; ` +
      `extractor imported only on a click: ${size(figures.extractorGzip)} gzip (what loading it eagerly would add)`,
  );
}
