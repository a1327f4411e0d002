import { join } from 'node:path';
import type { Plugin } from 'vite';
import { EAGER_OFFER_KEYS, type EagerWords, type OfferWordTable } from '../lib/pages/offer/words';
import { localeFiles, readLocale } from './i18nChecks';

/** The module the content script imports its eager words from (entrypoints/finance.ts). */
export const OFFER_WORDS_MODULE = 'virtual:offer-words';
const RESOLVED = `\0${OFFER_WORDS_MODULE}`;

/**
 * The offer's eager words of every locale, read from locales/*.yml with @wxt-dev/i18n's own
 * parser, so the content script need not ask browser.i18n on every page. A locale
 * without one of the words is left out: the browser's own i18n answers for it then.
 */
export function offerWordTable(localesDir: string): OfferWordTable {
  const table: Record<string, EagerWords> = {};
  for (const file of localeFiles(localesDir)) {
    const messages = readLocale(localesDir, file);
    const words = Object.fromEntries(EAGER_OFFER_KEYS.map((key) => [key, messages[`offer.${key}`] ?? '']));
    if (EAGER_OFFER_KEYS.every((key) => words[key] !== '')) table[file] = words as EagerWords;
  }
  return table;
}

/** Serves `virtual:offer-words`: the table above, as the default export (locales/ of the project root). */
export function offerWords(): Plugin {
  let localesDir = 'locales';
  return {
    name: 'offer-words',
    configResolved(config) {
      localesDir = join(config.root, 'locales');
    },
    resolveId: (id) => (id === OFFER_WORDS_MODULE ? RESOLVED : undefined),
    load(id) {
      if (id !== RESOLVED) return undefined;
      for (const file of localeFiles(localesDir)) this.addWatchFile(join(localesDir, `${file}.yml`));
      return `export default ${JSON.stringify(offerWordTable(localesDir))};`;
    },
  };
}
