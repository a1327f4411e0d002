/**
 * The three words the offer shows before the user acts, bundled into the content script for every
 * UI language (build/offerWords.ts reads them from locales/*.yml). The first `i18n.getMessage` of
 * a page makes Chromium fetch and parse the extension's whole message catalogue on the page's main
 * thread, synchronously: about 8 ms of script and 30 ms of main-thread task on every finance page
 * (measured with a CPU profile of the bench page). The words after a click (refusals,
 * "Draft saved") are read from browser.i18n then, when the user has acted.
 */
export const EAGER_OFFER_KEYS = ['group', 'turn', 'hide'] as const;
export type EagerOfferKey = (typeof EAGER_OFFER_KEYS)[number];
export type EagerWords = Record<EagerOfferKey, string>;
/** Per locale folder name (`en`, `pt_BR`, as in `_locales`), the eager words. */
export type OfferWordTable = Readonly<Record<string, EagerWords>>;

/** The locale folders a browser reads for `language`, as browser.i18n does: exact, language alone, then English. */
export function localeCandidates(language: string, fallback = 'en'): string[] {
  const exact = language.replace(/-/g, '_');
  const [alone] = exact.split('_');
  return [...new Set([exact, alone, fallback].filter(Boolean))];
}

/**
 * The eager words for `language` (the browser's `i18n.getUILanguage()`, which reads no
 * catalogue). A table without that language or English (unit tests) asks `fallback`, which reads
 * browser.i18n. Imports nothing: the build (wxt.config.ts) reads EAGER_OFFER_KEYS from here.
 */
export function eagerWords(
  table: OfferWordTable,
  language: string,
  fallback: (key: EagerOfferKey) => string,
): EagerWords {
  for (const locale of localeCandidates(language)) {
    const words = Object.hasOwn(table, locale) ? table[locale] : undefined;
    if (words) return words;
  }
  return { group: fallback('group'), turn: fallback('turn'), hide: fallback('hide') };
}
