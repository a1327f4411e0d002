import { defineContentScript } from 'wxt/utils/define-content-script';
// Inlined into the shadow root: no web-accessible CSS file, and sites registered at run time get it too.
import offerCss from '@/lib/pages/offer/offer.css?inline';
import { contentScriptMatches } from '@/lib/pages/offer/sitePatterns';
import { startOffer } from '@/lib/pages/offer/offer';

export default defineContentScript({
  // The build's WXT mode decides whether the sandbox's demo pages are included (never in store builds).
  matches: contentScriptMatches(import.meta.env.MODE),
  // The offer's CSS is inlined into its shadow root (lib/pages/offer/offer.tsx): nothing web-accessible.
  cssInjectionMode: 'manual',
  allFrames: false,
  runAt: 'document_idle',
  main: (ctx) => startOffer(ctx, offerCss),
});
