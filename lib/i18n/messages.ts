/**
 * Every user-visible string comes from here: locales/<lang>.yml, built by @wxt-dev/i18n into
 * _locales/<lang>/messages.json and read with browser.i18n in the browser's UI language.
 *
 * - `t('group.key', { name })`: one message, named placeholders `{name}` filled once (a value that
 *   itself contains `{x}` or `$1` is never read again, so service text stays as sent).
 * - `plural('group.key', count, { … })`: the message's form for `count` under `Intl.PluralRules`
 *   of the UI language (one, two, few, many, zero, other: Arabic uses all six). `{count}` is the
 *   count formatted for that language.
 *
 * Keys are checked by the compiler against locales/en.yml (.wxt/i18n/structure.d.ts), and by
 * tests/unit/i18n against every other locale: no missing, no unused, the same placeholders.
 */
import { browser } from 'wxt/browser';
import type { GeneratedI18nStructure } from '#i18n';
import { browserMessage } from './browserMessage';
import { cachedIntl, uiLocale } from './locale';

export { resetLocaleCache, uiLocale } from './locale';

/** Every key of locales/en.yml, dotted. */
export type MessageKey = Exclude<keyof GeneratedI18nStructure, `@@${string}`>;

/** The keys that are plural groups: `group.key` whose children are plural categories. */
export type PluralKey = {
  [K in MessageKey]: K extends `${infer Base}.other` ? Base : never;
}[MessageKey];

/** The message keys that are not plural forms (a plural is read only through plural()). */
export type TextKey = Exclude<MessageKey, `${string}.${PluralCategory}`>;

export type PluralCategory = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';

export type Values = Readonly<Record<string, string | number>>;

const NAMED = /\{(\w+)\}/g;

function fill(message: string, values: Values | undefined): string {
  if (!values) return message;
  return message.replace(NAMED, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? display(values[name]) : whole,
  );
}

function display(value: string | number): string {
  return typeof value === 'number'
    ? cachedIntl('number', (locale) => new Intl.NumberFormat(locale)).format(value)
    : value;
}

function raw(key: string): string {
  // Outside an extension (the bench and scripts under plain Node) there is no browser.i18n: the
  // key stands in for the words, which nothing there shows to a user.
  return browserMessage((browser as typeof browser | undefined)?.i18n, key);
}

function lookup(key: string): string {
  const message = raw(key);
  // A missing message is a build fault the tests catch; the key is better than a blank.
  return message || key;
}

/** One message in the UI language, its `{placeholders}` filled with `values`. */
export function t(key: TextKey, values?: Values): string {
  return fill(lookup(key), values);
}

/** The plural form of `key` for `count` in the UI language; `{count}` is the formatted count. */
export function plural(key: PluralKey, count: number, values?: Values): string {
  const category = cachedIntl('plural', (locale) => new Intl.PluralRules(locale)).select(count);
  const message = raw(`${key}.${category}`);
  return fill(message || lookup(`${key}.other`), { count, ...values });
}

/** "ltr" or "rtl": the UI language's direction, as the browser states it. */
export function direction(): 'ltr' | 'rtl' {
  return raw('@@bidi_dir') === 'rtl' ? 'rtl' : 'ltr';
}

/** The page speaks the UI language: `lang` and `dir` on <html>, before the first render. */
export function localizeDocument(document: Document): void {
  document.documentElement.lang = uiLocale();
  document.documentElement.dir = direction();
}
