import { browser } from 'wxt/browser';

/**
 * The one message the worker sends a tab, to the content script of its top frame: which tickers
 * the page names now (for "On this page"). Asked when the popup or side panel asks, not kept from
 * an earlier report: a single-page app, a hash route or a page restored by Back may show another
 * quote than the one it reported, and the worker cannot read the URL of a tab on a finance site
 * it has no host access to. The answer's schema is `pageTickersAnswer` (protocol.ts), which the
 * worker checks; this file stays free of zod for the content script's bundle.
 */
export const PAGE_TICKERS_QUERY = { type: 'pageTickers' } as const;

/** Content script: answers the worker's query, from this extension only; returns the removal. */
export function answerPageTickers(detect: () => string[]): () => void {
  const listener = (
    message: unknown,
    sender: { id?: string },
  ): Promise<{ tickers: string[] }> | undefined => {
    if (sender.id !== browser.runtime.id) return undefined;
    if ((message as { type?: unknown } | null)?.type !== PAGE_TICKERS_QUERY.type) return undefined;
    return Promise.resolve({ tickers: detect() });
  };
  // The polyfill answers the sender with whatever the returned promise resolves to.
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  browser.runtime.onMessage.addListener(listener);
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  return () => browser.runtime.onMessage.removeListener(listener);
}
