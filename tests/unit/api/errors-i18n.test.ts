import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorFromStatus, scrubSecret } from '@/lib/api';
import { WRITE_ERRORS } from '@/lib/writes/errors';
import { formatClock } from '@/lib/i18n';
import { forgetSecrets, registerSecret } from '@/lib/log';
import { chromeMessages, useLocale } from '../../fixtures/i18n';
import { clientFor, problem, rejection, SENTINEL_KEY, SITE_URL, START } from './support';
import type { ApiError } from '@/lib/api';

const LOCALES = ['en', 'de', 'fr', 'es', 'ja', 'zh_CN', 'pt_BR', 'ar'];

afterEach(() => {
  vi.useRealTimers();
  forgetSecrets();
});

describe('API errors in the UI language', () => {
  it('401 in German: the German sentence, with the /apikey link and the operationId as sent', () => {
    useLocale('de');
    const error = errorFromStatus({ operationId: 'getAccount', status: 401, siteUrl: SITE_URL });
    expect(error.message).toBe(
      `getAccount benötigt einen gültigen API-Schlüssel. Melden Sie sich an oder erstellen Sie einen Schlüssel unter ${SITE_URL}/apikey`,
    );
  });

  it('429 in German: the reset time as a German clock time and "in 3 Minuten"', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(START);
    useLocale('de');
    const retryAt = START + 3 * 60_000;
    const error = errorFromStatus({ operationId: 'listPlaybooks', status: 429, siteUrl: SITE_URL, retryAt });
    const clock = formatClock(retryAt);
    // German clocks are 24-hour "HH:MM", never "2:03 PM".
    expect(clock).toMatch(/^\d{2}:\d{2}$/);
    expect(error.message).toBe(
      `listPlaybooks hat das Anfragelimit des Dienstes erreicht; ein neuer Versuch ist um ${clock} (in 3 Minuten) möglich.`,
    );
    expect(error.retryAt).toBe(retryAt);
  });

  it('the service’s own words are shown literally: {operation} and $1 in them are not substituted', () => {
    useLocale('de');
    const said = 'Try {operation} with $1 or $$ and {said} later.';
    const error = errorFromStatus({
      operationId: 'activatePlaybook',
      status: 503,
      siteUrl: SITE_URL,
      problem: { detail: said },
    });
    expect(error.message).toBe(
      `activatePlaybook ist fehlgeschlagen: Der Dienst antwortete mit 503 (${said}).`,
    );
    const conflict = errorFromStatus({
      operationId: '{said}$1',
      status: 409,
      siteUrl: SITE_URL,
      problem: { detail: '{operation}' },
    });
    expect(conflict.message).toBe('{said}$1 steht im Konflikt mit einer anderen Anfrage: {operation}');
  });

  it('a German 403 keeps the key out of the message', () => {
    useLocale('de');
    // As the client does before it sends (keyFor): the service's words are screened as they are read.
    registerSecret(SENTINEL_KEY);
    const error = scrubSecret(
      errorFromStatus({
        operationId: 'activatePlaybook',
        status: 403,
        siteUrl: SITE_URL,
        problem: { detail: `Key ${SENTINEL_KEY} is read-only`, missing_permission: 'playbooks:execute' },
      }),
      SENTINEL_KEY,
    );
    expect(error.message).toMatch(
      /^activatePlaybook ist nicht erlaubt: Ihrem Schlüssel fehlt die Berechtigung „playbooks:execute“\. /,
    );
    // The detail held the key: withheld whole, in German.
    expect(error.message).toContain('Die Antwort des Dienstes enthielt Ihren API-Schlüssel');
    expect(JSON.stringify(error.toJSON())).not.toContain(SENTINEL_KEY.slice(0, 12));
  });

  it('giving up after retries, in German: the plural form of the attempts and the German reasons', async () => {
    useLocale('de');
    const { client } = clientFor(() => problem(503, { title: 'Unavailable' }));
    const error = (await rejection(client.call('getAccount'))) as ApiError;
    expect(error.message).toBe(
      'getAccount ist nach 4 Versuchen fehlgeschlagen: Der Dienst antwortete mit 503 (keine Versuche mehr übrig).',
    );
  });

  it('the write table speaks the language of the moment it is read', () => {
    expect(WRITE_ERRORS['draft-not-found'].message).toBe('This draft no longer exists.');
    useLocale('fr');
    expect(WRITE_ERRORS['draft-not-found'].message).toBe('Ce brouillon n’existe plus.');
  });
});

describe('errors.* in every locale', () => {
  const PLURAL = /_(zero|one|two|few|many|other)$/;
  const english = chromeMessages('en');
  const keys = Object.keys(english).filter((key) => key.startsWith('errors_') && !PLURAL.test(key));
  const names = (text: string) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))].sort();

  it.each(LOCALES)('%s has every errors message, with the English placeholders', (file) => {
    const messages = chromeMessages(file);
    for (const key of keys) {
      expect(messages[key]?.message, key).toBeTypeOf('string');
      expect(names(messages[key].message), key).toEqual(names(english[key].message));
    }
    // Plurals: the "other" form carries every placeholder; each form the language has is present.
    const other = messages.errors_retry_gaveUp_other?.message ?? '';
    expect(names(other)).toEqual(names(english.errors_retry_gaveUp_other.message));
    for (const category of new Intl.PluralRules(file.replace('_', '-')).resolvedOptions().pluralCategories)
      expect(messages[`errors_retry_gaveUp_${category}`]?.message, `${file} ${category}`).toBeTypeOf(
        'string',
      );
  });
});
