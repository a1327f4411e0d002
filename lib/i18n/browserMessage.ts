/**
 * One message read from a browser's own i18n API. It imports nothing at run time, so the scripts
 * that run in pages (the offer, the article capture) use it without the polyfill, and
 * lib/i18n's `t` reads through it too.
 */

/** The one method of browser.i18n / chrome.i18n this needs. */
export interface MessageSource {
  getMessage(name: string): string;
}

/** The message `key` (dotted, as in locales/*.yml) in the UI language; "" when there is none. */
export function browserMessage(source: MessageSource | undefined, key: string): string {
  // browser.i18n keys are flat: `popup.title` is `popup_title` in messages.json.
  return source?.getMessage(key.replaceAll('.', '_')) ?? '';
}
