import { defineContentScript } from 'wxt/utils/define-content-script';
import { startOffer } from '@/lib/content/offer';
import { contentScriptMatches } from '@/lib/content/matches';

export default defineContentScript({
  // The build's WXT mode decides whether the sandbox's demo pages are included (never in store builds).
  matches: contentScriptMatches(import.meta.env.MODE),
  // The offer's CSS is inlined into its shadow root (lib/content/offer.tsx): nothing web-accessible.
  cssInjectionMode: 'manual',
  allFrames: false,
  runAt: 'document_idle',
  main: (ctx) => startOffer(ctx),
});
