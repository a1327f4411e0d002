import type { browser } from 'wxt/browser';
import type { Envelope, MessageName, RequestOf, ResponseOf } from '@/lib/messaging/protocol';
import type { TextKey } from '@/lib/i18n';
import { browserMessage } from '@/lib/i18n/browserMessage';

/**
 * The few browser APIs the content script uses, taken from the browser itself: `browser` on
 * Firefox, `chrome` on Chromium (MV3: both answer with promises). No polyfill, so the script every
 * finance page carries stays small; `lib/messaging/client.ts` is the extension pages'
 * equivalent of `sendToWorker`.
 */
export type ExtensionApi = Pick<typeof browser, 'runtime' | 'storage' | 'i18n'>;

/** The offer's own messages (locales/*.yml, group `offer`). */
export type OfferKey = Extract<TextKey, `offer.${string}`>;

/**
 * One of the offer's messages in the browser's UI language, read from browser.i18n directly:
 * lib/i18n would bring the polyfill into the script every finance page carries. The
 * words depend on the UI language only, which the page already knows, never on what the user tracks.
 */
export function offerText(api: ExtensionApi, key: OfferKey): string {
  return browserMessage(api.i18n, key) || key;
}

/** An error whose message is already the words to show (the offer's own, or the worker's). */
export class OfferError extends Error {}

export function extensionApi(): ExtensionApi | undefined {
  const scope = globalThis as { browser?: ExtensionApi; chrome?: ExtensionApi };
  const api = scope.browser ?? scope.chrome;
  return api?.runtime?.id ? api : undefined;
}

/** Sends one typed message to the worker and unwraps its envelope; throws an Error with the words to show. */
export async function sendToWorker<N extends MessageName>(
  api: ExtensionApi,
  type: N,
  payload: RequestOf<N>,
): Promise<ResponseOf<N>> {
  const envelope = await api.runtime.sendMessage<unknown, Envelope<ResponseOf<N>> | undefined>({
    type,
    payload,
  });
  if (!envelope || typeof envelope !== 'object' || !('ok' in envelope))
    throw new OfferError(offerText(api, 'offer.noAnswer'));
  if (!envelope.ok) throw new OfferError(envelope.error.message);
  return envelope.value;
}
