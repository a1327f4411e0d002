/**
 * A draft's field problems reach the user in the UI language, never as zod's or the schema's
 * English: the source URL first (its refinement names the problem by code), then the others.
 */
import { describe, expect, it } from 'vitest';
import { HandledError } from '@/lib/contract/handledError';
import { playbookDraftSchema } from '@/lib/finance/schema';
import { fieldProblemText } from '@/lib/i18n/problems';
import { fieldErrors } from '@/lib/messaging';
import { queuePageDraft } from '@/lib/writes/owner';
import { confirmedBody } from '@/lib/writes/resolve';
import { messageOf, useLocale } from '../../fixtures/i18n';
import type { Entry } from '@/lib/writes/transitions';

const DRAFT = {
  title: 'NVDA — data-center revenue doubled',
  thesis: 'Data-center revenue doubled.',
  tickers: ['NVDA'],
  visibility: 'private',
  source: { url: 'https://news.example/nvda', title: 'Nvidia results', excerpt: '' },
};

const LOCALES = ['en', 'de', 'fr', 'es', 'ja', 'zh_CN', 'pt_BR', 'ar'];

async function refusalOf(promise: Promise<unknown>): Promise<HandledError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(HandledError);
  return error as HandledError;
}

describe('an invalid source URL, in the UI language', () => {
  it.each(LOCALES)('%s: the schema’s URL problem is the locale’s errors.field.httpUrl', (file) => {
    useLocale(file);
    const parsed = playbookDraftSchema.safeParse({
      ...DRAFT,
      source: { ...DRAFT.source, url: 'ftp://x.example/a' },
    });
    expect(parsed.success).toBe(false);
    const issue = parsed.error!.issues.find((each) => each.path.join('.') === 'source.url')!;
    expect(fieldProblemText(issue)).toBe(messageOf(file, 'errors.field.httpUrl'));
  });

  it('a page’s draft with a credentialed source URL is refused with German field words', async () => {
    useLocale('de');
    const refused = await refusalOf(
      queuePageDraft('content-script', {
        ...DRAFT,
        title: '',
        source: { ...DRAFT.source, url: 'https://user:pw@news.example/nvda' },
      }),
    );
    expect(refused.wire.message).toBe(messageOf('de', 'errors.write.unusableDraft'));
    expect(refused.wire.fields).toEqual({
      'source.url': 'Muss eine Webadresse (http oder https) ohne Benutzername und Passwort sein.',
      title: messageOf('de', 'errors.field.empty'),
    });
  });

  it('an edit in the confirm window to a javascript: source URL is refused in Japanese', () => {
    useLocale('ja');
    const entry = { operationId: 'createPlaybook', draft: { body: DRAFT } } as unknown as Entry;
    let caught: unknown;
    try {
      confirmedBody(entry, { source: { ...DRAFT.source, url: 'javascript:alert(1)' } });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(HandledError);
    expect((caught as HandledError).wire.fields).toEqual({
      'source.url': messageOf('ja', 'errors.field.httpUrl'),
    });
  });

  it('a refinement that names no problem keeps its own (already translated) words', () => {
    useLocale('de');
    const parsed = playbookDraftSchema.refine(() => false, { error: 'Eigene Worte.' }).safeParse(DRAFT);
    expect(fieldErrors(parsed.error!, 'body')).toEqual({ body: 'Eigene Worte.' });
  });
});
