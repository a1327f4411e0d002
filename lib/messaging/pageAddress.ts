import { browser } from 'wxt/browser';

/**
 * The one message the worker sends a tab, to the content script in its top frame: which page it
 * shows now. The worker cannot read the URL of a tab on a site it has no host access to (every
 * built-in finance site: their access comes from the content script's matches only); the content
 * script runs in that page and can. Apart from protocol.ts, whose zod schemas the content
 * script's bundle does not need; the worker checks the answer (lib/background/pageMatches.ts).
 */
export const PAGE_ADDRESS_QUERY = { type: 'pageAddress' } as const;

/** What the content script answers. */
export interface PageAddress {
  url: string;
}

/** Content script: answers the worker's query from this extension only; returns the removal. */
export function answerPageAddress(): () => void {
  const listener = (message: unknown, sender: { id?: string }): Promise<PageAddress> | undefined => {
    if (sender.id !== browser.runtime.id) return undefined;
    if ((message as { type?: unknown } | null)?.type !== PAGE_ADDRESS_QUERY.type) return undefined;
    return Promise.resolve({ url: location.href });
  };
  // The polyfill answers the sender with whatever the returned promise resolves to.
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  browser.runtime.onMessage.addListener(listener);
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  return () => browser.runtime.onMessage.removeListener(listener);
}
