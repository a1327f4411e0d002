/**
 * The checks every file in locales/ must pass (tests/unit/i18n/locales.test.ts runs them).
 * Each is a pure function over flat messages (`group.key` → message, as @wxt-dev/i18n parses the
 * YAML), so a test can feed it a small bad locale and see it fail. Every problem names the locale
 * and the key.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseMessagesText } from '@wxt-dev/i18n/build';

/** A locale's messages, flat: `popup.title` → "Playbook Companion". */
export type Messages = Readonly<Record<string, string>>;

const CATEGORIES = new Set(['zero', 'one', 'two', 'few', 'many', 'other']);

/** A locales/ file name as a BCP 47 tag: pt_BR → pt-BR. */
export function localeTag(file: string): string {
  return file.replace('_', '-');
}

/** locales/<file>.yml, flat. Throws (naming the file) when the YAML does not parse. */
export function readLocale(dir: string, file: string): Messages {
  const text = readFileSync(join(dir, `${file}.yml`), 'utf8');
  const flat: Record<string, string> = {};
  for (const message of parseMessagesText(text, 'YAML')) {
    if (message.key[0].startsWith('@@')) continue; // browser.i18n's own (@@ui_locale…), added by the parser
    if (message.type !== 'simple') {
      throw new Error(`${file}: ${message.key.join('.')} is a ${message.type} message; write plain strings`);
    }
    flat[message.key.join('.')] = message.message;
  }
  return flat;
}

/** The file names in locales/ (en, de, pt_BR…). */
export function localeFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.yml'))
    .map((name) => name.slice(0, -'.yml'.length))
    .sort();
}

/** The plural groups of a locale: `common.playbooks` when `common.playbooks.other` (or any form) exists. */
export function pluralGroups(messages: Messages): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const key of Object.keys(messages)) {
    const dot = key.lastIndexOf('.');
    const last = key.slice(dot + 1);
    if (dot < 0 || !CATEGORIES.has(last)) continue;
    const group = key.slice(0, dot);
    groups.set(group, [...(groups.get(group) ?? []), last]);
  }
  // A group is plural only if it has `other` in English; the check below reads en's groups.
  return groups;
}

/** `group.key` of a message, or its plural group when it is one of a group's forms. */
function unitOf(key: string, groups: ReadonlyMap<string, unknown>): string {
  const dot = key.lastIndexOf('.');
  const group = key.slice(0, dot);
  return dot > 0 && CATEGORIES.has(key.slice(dot + 1)) && groups.has(group) ? group : key;
}

/** Keys of en missing in the locale, and keys of the locale that en lacks (plural forms count by group). */
export function checkKeys(file: string, en: Messages, messages: Messages): string[] {
  const enGroups = pluralGroups(en);
  const groups = pluralGroups(messages);
  const enUnits = new Set(Object.keys(en).map((key) => unitOf(key, enGroups)));
  const units = new Set(Object.keys(messages).map((key) => unitOf(key, groups)));
  const problems: string[] = [];
  for (const unit of enUnits) if (!units.has(unit)) problems.push(`${file}: ${unit} is missing (en has it)`);
  for (const unit of units) if (!enUnits.has(unit)) problems.push(`${file}: ${unit} is not in en.yml`);
  for (const unit of units) {
    if (groups.has(unit) !== enGroups.has(unit) && enUnits.has(unit)) {
      problems.push(`${file}: ${unit} is ${groups.has(unit) ? '' : 'not '}a plural group, unlike en`);
    }
  }
  return problems;
}

const PLACEHOLDER = /\{(\w+)\}/g;

function placeholders(message: string): Set<string> {
  return new Set([...message.matchAll(PLACEHOLDER)].map((match) => match[1]));
}

function placeholdersOf(
  unit: string,
  messages: Messages,
  groups: ReadonlyMap<string, string[]>,
): Set<string> {
  const forms = groups.get(unit);
  if (!forms) return placeholders(messages[unit] ?? '');
  return new Set(forms.flatMap((form) => [...placeholders(messages[`${unit}.${form}`] ?? '')]));
}

/** The same `{placeholders}` as en, per message; for a plural group, the union over its forms. */
export function checkPlaceholders(file: string, en: Messages, messages: Messages): string[] {
  const enGroups = pluralGroups(en);
  const groups = pluralGroups(messages);
  const problems: string[] = [];
  const units = new Set(Object.keys(en).map((key) => unitOf(key, enGroups)));
  for (const unit of units) {
    if (!(unit in messages) && !groups.has(unit)) continue; // checkKeys reports it
    const want = [...placeholdersOf(unit, en, enGroups)].sort().join(', ');
    const have = [...placeholdersOf(unit, messages, groups)].sort().join(', ');
    if (want !== have) problems.push(`${file}: ${unit} has placeholders {${have}}, en has {${want}}`);
  }
  return problems;
}

/** Every plural group lists exactly the categories Intl.PluralRules has for the language. */
export function checkPluralCategories(file: string, messages: Messages): string[] {
  const needed = new Intl.PluralRules(localeTag(file)).resolvedOptions().pluralCategories as string[];
  const problems: string[] = [];
  for (const [group, forms] of pluralGroups(messages)) {
    const missing = needed.filter((category) => !forms.includes(category));
    const unusable = forms.filter((form) => !needed.includes(form));
    if (missing.length) problems.push(`${file}: ${group} lacks the plural form(s) ${missing.join(', ')}`);
    if (unusable.length) {
      problems.push(`${file}: ${group} has plural form(s) ${unusable.join(', ')} that ${file} never selects`);
    }
  }
  return problems;
}

/** browser.i18n reads `$` as the start of a placeholder: a literal one is `$$`. */
export function checkDollars(file: string, messages: Messages): string[] {
  return Object.entries(messages)
    .filter(([, message]) => message.replaceAll('$$', '').includes('$'))
    .map(([key]) => `${file}: ${key} has a lone $ (write $$ for a dollar sign)`);
}

const WORD = /\p{L}+/gu;

/** A sentence (3+ words, placeholders not counted) left in English in another locale. `allowed` holds keys that may stay. */
export function checkTranslated(
  file: string,
  en: Messages,
  messages: Messages,
  allowed: ReadonlySet<string> = new Set(),
): string[] {
  if (file === 'en') return [];
  return (
    Object.entries(messages)
      .filter(([key, message]) => en[key] === message && !allowed.has(key))
      // Placeholders are not words: "{start} – {end} vs {benchmark}" is one word ("vs"), fine to keep.
      .filter(([, message]) => (message.replace(PLACEHOLDER, ' ').match(WORD) ?? []).length >= 3)
      .map(([key]) => `${file}: ${key} is still the English "${en[key]}"`)
  );
}

/** The text of every source file under `roots` (files or folders), for the unused-key check. */
export function readSources(root: string, roots: readonly string[]): string {
  const texts: string[] = [];
  const walk = (path: string): void => {
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path)) walk(join(path, name));
    } else if (/\.(tsx?|html)$/.test(path)) {
      texts.push(readFileSync(path, 'utf8'));
    }
  };
  for (const entry of roots) walk(resolve(root, entry));
  return texts.join('\n');
}

/**
 * Keys of en that no source names. A key is used when its literal string appears in quotes
 * (`'popup.title'`); a plural form by its group (`'common.playbooks'`); a `manifest.*` key by
 * `__MSG_manifest_name__`. A key chosen at run time from a template (`` `errors.${code}` ``)
 * counts every key under that prefix as used. `allowed` keys may be unused.
 */
export function checkUnused(
  en: Messages,
  sources: string,
  allowed: ReadonlySet<string> = new Set(),
): string[] {
  const groups = pluralGroups(en);
  const used = new Set<string>();
  for (const match of sources.matchAll(/['"`]([\w.]+)['"`]/g)) used.add(match[1]);
  for (const match of sources.matchAll(/__MSG_(\w+)__/g)) used.add(match[1]);
  const prefixes = [...sources.matchAll(/`([\w.]+\.)\$\{/g)].map((match) => match[1]);
  const units = new Set(Object.keys(en).map((key) => unitOf(key, groups)));
  return [...units]
    .filter((unit) => !allowed.has(unit) && !used.has(unit) && !used.has(unit.replaceAll('.', '_')))
    .filter((unit) => !prefixes.some((prefix) => unit.startsWith(prefix)))
    .map((unit) => `en: ${unit} is used nowhere in the sources`);
}
