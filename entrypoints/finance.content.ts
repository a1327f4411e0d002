import { defineContentScript } from 'wxt/utils/define-content-script';
import { startOffer } from '@/lib/content/offer';
import { CONTENT_SCRIPT_MATCHES } from '@/lib/content/matches';

export default defineContentScript({
  matches: CONTENT_SCRIPT_MATCHES,
  // The offer's CSS is inlined into its shadow root (lib/content/offer.tsx): nothing web-accessible.
  cssInjectionMode: 'manual',
  allFrames: false,
  runAt: 'document_idle',
  main: (ctx) => startOffer(ctx),
});
