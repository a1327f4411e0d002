import { resolve } from 'node:path';
import { readLocale, type Messages } from '../../../build/i18nChecks';
import { ROOT } from '../paths';

const read = new Map<string, Messages>();

/**
 * A message of locales/<file>.yml as the page shows it (`$$` is `$`), read at test time so the
 * journeys never hard-code a translation. A key the file lacks fails the test by name.
 */
export function message(file: string, key: string, values: Record<string, string> = {}): string {
  let messages = read.get(file);
  if (!messages) {
    messages = readLocale(resolve(ROOT, 'locales'), file);
    read.set(file, messages);
  }
  const text = messages[key];
  if (text === undefined) throw new Error(`locales/${file}.yml has no ${key}`);
  return text.replaceAll('$$', '$').replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}
