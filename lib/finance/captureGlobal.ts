import type { PlaybookDraft } from '@/lib/finance/schema';

/** The extension's file the worker injects to read the article (entrypoints/article-capture.ts). */
export const ARTICLE_CAPTURE_FILE = '/article-capture.js';
/** Where that file leaves its function, in the extension's isolated world of the tab. */
export const ARTICLE_CAPTURE_GLOBAL = '__playbookCompanionCaptureArticle';
/** The selection handed to the extractor is bounded like the one the content script reads. */
export const MAX_CAPTURE_SELECTION = 20_000;

export type ArticleCaptureFunction = (selection: string) => PlaybookDraft | null;

/** The content script of finance pages (entrypoints/finance.ts), declared in wxt.config.ts and registered for extra sites. */
export const OFFER_SCRIPT = '/finance.js';

/** The file the worker injects to read the page's tickers (entrypoints/page-tickers.ts). */
export const PAGE_TICKERS_FILE = '/page-tickers.js';
/** Where that file leaves its function, in the extension's isolated world of the tab. */
export const PAGE_TICKERS_GLOBAL = '__playbookCompanionPageTickers';

export type PageTickersFunction = () => string[];
