/**
 * Firefox ESR in German (intl.locale.requested = de, with Debian's firefox-esr-l10n-de): the
 * options page speaks locales/de.yml. Expected strings are read from that file at test time.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readLocale, type Messages } from '../../build/i18nChecks';
import { ROOT, launchFirefox, textOf, type Firefox } from './harness';

let de: Messages | undefined;

function message(key: string): string {
  de ??= readLocale(resolve(ROOT, 'locales'), 'de');
  const text = de[key];
  if (text === undefined) throw new Error(`locales/de.yml has no ${key}`);
  return text.replaceAll('$$', '$');
}

let firefox: Firefox;

beforeAll(async () => {
  firefox = await launchFirefox({ locale: 'de' });
});
afterAll(async () => {
  await firefox?.close();
});

it('the browser speaks German: browser.i18n reports de', async () => {
  const language = await firefox.inExtension(
    () =>
      Promise.resolve(
        (
          globalThis as unknown as { browser: { i18n: { getUILanguage(): string } } }
        ).browser.i18n.getUILanguage(),
      ),
    null,
  );
  expect(language).toMatch(/^de\b/);
});

it('the options page is in German', async () => {
  const options = await firefox.open('options.html', 'form');
  expect(await options.$eval('html', (html) => html.lang)).toMatch(/^de\b/);
  const text = await textOf(options);
  expect(text).toContain(message('options.serviceUrl'));
  expect(text).toContain(message('options.save'));
  expect(text).toContain(message('options.testConnection'));
});
