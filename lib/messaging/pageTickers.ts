/**
 * The one message the worker sends a tab, to the content script of its top frame: which tickers
 * the page names now (for "On this page"). Asked when the popup or side panel asks, not kept from
 * an earlier report: a single-page app, a hash route or a page restored by Back may show another
 * quote than the one it reported, and the worker cannot read the URL of a tab on a finance site
 * it has no host access to. The answer's schema is `pageTickersAnswer` (protocol.ts), which the
 * worker checks; this file stays free of zod and of the polyfill for the content script's bundle.
 */
export const PAGE_TICKERS_QUERY = { type: 'pageTickers' } as const;

type Listener = (
  message: unknown,
  sender: { id?: string },
  respond: (answer: unknown) => void,
) => true | undefined;

/** The browser's `runtime`, as the content script takes it (`chrome` or `browser`, no polyfill). */
export interface RuntimeLike {
  id: string;
  onMessage: { addListener(listener: Listener): void; removeListener(listener: Listener): void };
}

/**
 * Content script: answers the worker's query, from this extension only, with what `detect` finds
 * when asked; returns the removal. The answer goes through `respond` (kept open by returning
 * true), which Chromium and Firefox both honour without a polyfill.
 */
export function answerPageTickers(runtime: RuntimeLike, detect: () => Promise<string[]>): () => void {
  const listener: Listener = (message, sender, respond) => {
    if (sender.id !== runtime.id) return undefined;
    if ((message as { type?: unknown } | null)?.type !== PAGE_TICKERS_QUERY.type) return undefined;
    detect().then(
      (tickers) => respond({ tickers }),
      () => respond({ tickers: [] }),
    );
    return true;
  };
  runtime.onMessage.addListener(listener);
  return () => runtime.onMessage.removeListener(listener);
}
