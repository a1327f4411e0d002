import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
// Inlined into the shadow root: no web-accessible CSS file, and sites registered at run time get it too.
import offerCss from '@/lib/pages/offer/offer.css?inline';
// The offer's first words in every UI language (build/offerWords.ts): no browser.i18n call on a page.
import offerWords from 'virtual:offer-words';
import { startOffer, whenShownAndIdle } from '@/lib/pages/offer/offer';

/**
 * The content script of finance pages (declared in wxt.config.ts, `content_scripts`). An
 * unlisted script rather than `defineContentScript`: WXT's content-script context announces
 * itself to the page with `window.postMessage` (the extension's id in the message) and can be
 * stopped by a page that forges that message. This runs once the page is shown and the
 * browser is idle.
 */
export default defineUnlistedScript(() =>
  whenShownAndIdle(() => void startOffer({ css: offerCss, words: offerWords })),
);
