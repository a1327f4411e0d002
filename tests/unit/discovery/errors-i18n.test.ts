/**
 * The checks of the service's documents speak the UI language through and through: no English
 * clause from zod, from the JSON Schema validator or from a literal of ours inside a translated
 * message. The document's own paths (`servers`, `/title`) and the status code stay as they are.
 */
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  parseKnownShape,
  parseOpenApiDocument,
  resolveOperation,
  validateRequestBody,
} from '@/lib/api';
import { accountSchema } from '@/lib/api';
import { fetchDiscoveryDocument, type FetchLike } from '@/lib/discovery/fetchDocument';
import type { CachedDocument, DocumentCache } from '@/lib/discovery/cache';
import { checkOpenApiDocument } from '@/lib/discovery/openapi';
import { parseSkillsIndex } from '@/lib/discovery/skills';
import { messageOf, useLocale } from '../../fixtures/i18n';
import { openApiDocument, SITE_URL } from '../api/support';

/** English that zod, the validator or an old literal of ours would have put in. */
const ENGLISH =
  /\b(expected|required|invalid|must|string|too (short|long)|does not|is not|not an?|entry|name)\b/i;

function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('the OpenAPI checks in German and Japanese', () => {
  it.each(['de', 'ja'])('%s: discovery’s check of a 3.0 document without servers', (file) => {
    useLocale(file);
    const error = thrown(() =>
      checkOpenApiDocument({ openapi: '3.0.3', servers: [], paths: {} }, `${SITE_URL}/openapi.json`),
    );
    // Each issue is a sentence: no space between them in Japanese.
    const reason = [
      `openapi: ${messageOf(file, 'errors.field.format')}`,
      `servers: ${messageOf(file, 'errors.field.required')}`,
    ].join(file === 'ja' ? '' : ' ');
    expect(error.message).toBe(messageOf(file, 'errors.discovery.openApiUnusable', { reason }));
    expect(error.message).not.toMatch(ENGLISH);
  });

  it('de: the API client’s parse of a document that is not OpenAPI 3', () => {
    useLocale('de');
    const error = thrown(() => parseOpenApiDocument({ ...openApiDocument(), openapi: '2.0' }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe(
      messageOf('de', 'errors.api.documentUnusable', {
        reason: `openapi: ${messageOf('de', 'errors.field.format')}`,
      }),
    );
  });

  it('de: a request body refused by the service’s JSON Schema, keyword by keyword', () => {
    useLocale('de');
    const document = parseOpenApiDocument(openApiDocument());
    const operation = resolveOperation(document, 'createPlaybook', Date.UTC(2026, 0, 1), {
      documentUrl: `${SITE_URL}/openapi.json`,
    });
    const error = thrown(() =>
      validateRequestBody(document, operation, {
        title: 'x'.repeat(121),
        thesis: 'x',
        visibility: 'secret',
        tickers: ['nvda'],
      }),
    ) as ApiError;
    expect(error.fieldErrors).toEqual({
      '/title': 'Höchstens 120 Zeichen.',
      '/visibility': messageOf('de', 'errors.field.notAllowedValue'),
      '/tickers/0': messageOf('de', 'errors.field.format'),
    });
    expect(error.message).not.toMatch(ENGLISH);
  });

  it('de: an answer of the wrong shape names the field in German words', () => {
    useLocale('de');
    const error = thrown(() => parseKnownShape(accountSchema, { id: 42 }, 'getAccount', 200));
    expect(error.message).not.toMatch(ENGLISH);
    expect(error.message).toContain(messageOf('de', 'errors.field.type').slice(0, 10));
  });
});

describe('discovery documents in German', () => {
  const cache: DocumentCache = {
    get: () => Promise.resolve(undefined as CachedDocument | undefined),
    put: () => Promise.resolve(),
    touch: () => Promise.resolve(),
  } as unknown as DocumentCache;

  it('a 404 says so in German', async () => {
    useLocale('de');
    const fetch: FetchLike = () => Promise.resolve(new Response('gone', { status: 404 }));
    const result = await fetchDiscoveryDocument('https://svc.example/llms.txt', 'text/plain', {
      fetch,
      now: () => 0,
      cache,
    });
    expect(result.error).toBe(messageOf('de', 'errors.discovery.httpStatus', { status: '404' }));
  });

  it('a skills index’s left-out entries give their reasons in German', () => {
    useLocale('de');
    const index = parseSkillsIndex(
      {
        skills: [
          { name: 'a', type: 'archive', description: 'A', url: 'a/SKILL.md', digest: 'sha256:00' },
          { name: 'b', type: 'skill-md', description: 'B', url: 'ftp://x/SKILL.md', digest: 'sha256:00' },
          7,
        ],
      },
      'https://svc.example/.well-known/agent-skills/index.json',
    );
    expect(index.skipped.map((skip) => skip.reason)).toEqual([
      messageOf('de', 'errors.discovery.skillSkipped.unsupportedType', { type: 'archive' }),
      messageOf('de', 'errors.discovery.skillSkipped.notHttp'),
      messageOf('de', 'errors.discovery.skillSkipped.malformed'),
    ]);
  });
});

describe('a backtest’s malformed equity series in German', () => {
  it('dates out of order and a string value are worded in German, never in zod’s English', async () => {
    const { checkSeries } = await import('@/lib/backtests/series');
    useLocale('de');
    const point = (date: string, value: unknown) => ({ date, value, benchmark: 1 });
    const unordered = checkSeries([point('2024-01-03', 1), point('2024-01-02', 1)]);
    expect(unordered).toEqual({
      ok: false,
      message: messageOf('de', 'backtests.malformedAt', {
        point: '1',
        reason: messageOf('de', 'errors.field.notAscending'),
      }),
    });
    const text = checkSeries([point('2024-01-02', '1')]);
    expect(text.ok).toBe(false);
    if (!text.ok) {
      expect(text.message).toBe(
        messageOf('de', 'backtests.malformedAt', {
          point: '0',
          reason: messageOf('de', 'errors.field.type'),
        }),
      );
      expect(text.message).not.toMatch(ENGLISH);
    }
  });
});
