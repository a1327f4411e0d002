import { defineContentScript } from 'wxt/utils/define-content-script';
import '@/components/PlaybookButton.css';
import { startOffer } from '@/lib/content/offer';
import { CONTENT_SCRIPT_MATCHES } from '@/lib/content/matches';

export default defineContentScript({
  matches: CONTENT_SCRIPT_MATCHES,
  cssInjectionMode: 'ui',
  runAt: 'document_idle',
  main: (ctx) => startOffer(ctx),
});
