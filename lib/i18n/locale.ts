/**
 * The browser's UI language, and the Intl objects built for it: each is built once per page
 * (building one loads the language's data) and shared by messages and formatters alike.
 */
import { browser } from 'wxt/browser';

let locale: string | undefined;

/** The browser's UI language as a BCP 47 tag ("de", "pt-BR", "ar"): what Intl formats in. */
export function uiLocale(): string {
  if (locale) return locale;
  let tag = 'en';
  try {
    tag = browser.i18n.getUILanguage() || 'en';
  } catch {
    // Contexts without browser.i18n (the bench and scripts under plain Node) fall back to English.
  }
  return (locale = tag.replace('_', '-'));
}

type IntlObject = Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat | Intl.PluralRules;

const built = new Map<string, IntlObject>();

/** The Intl object `id` for the UI language, made by `make` the first time it is asked for. */
export function cachedIntl<T extends IntlObject>(id: string, make: (locale: string) => T): T {
  const key = `${uiLocale()}|${id}`;
  let made = built.get(key) as T | undefined;
  if (!made) built.set(key, (made = make(uiLocale())));
  return made;
}

/** For tests: forget the language and what was built for it, so that a stubbed one is read again. */
export function resetLocaleCache(): void {
  locale = undefined;
  built.clear();
}
