import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { pageTickers } from '@/lib/finance/draft';
import { PAGE_TICKERS_GLOBAL, type PageTickersFunction } from '@/lib/finance/captureGlobal';

/**
 * The tickers the page names, its selection left out (lib/finance/draft.ts `pageTickers`): injected
 * by the worker into the tab's top frame, in the extension's isolated world, when it reads the
 * page for the badge or "On this page" (lib/background/pageMatches.ts). Kept out of the content
 * script every finance page carries.
 */
export default defineUnlistedScript(() => {
  const read: PageTickersFunction = () => {
    try {
      return pageTickers(location.href, document);
    } catch {
      return [];
    }
  };
  (globalThis as Record<string, unknown>)[PAGE_TICKERS_GLOBAL] = read;
});
