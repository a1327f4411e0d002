import { describe, expect, it } from 'vitest';
import { DRAFT_LIMITS } from '@/lib/finance/draft';
import { playbookDraftSchema, sanitizeDraft } from '@/lib/finance/schema';

const valid = {
  title: 'AAPL — Services keep growing',
  thesis: 'Services margin expands.\n\nBuybacks continue.',
  tickers: ['AAPL', 'BRK.B', '^GSPC', 'GC=F', 'EURUSD=X', 'BTC-USD', 'VOD.L', '7203.T'],
  visibility: 'private',
  source: { url: 'https://finance.yahoo.com/quote/AAPL/', title: 'Apple Inc. (AAPL)', excerpt: '' },
};

type Draft = typeof valid;
function withChange(change: (draft: Draft) => void): unknown {
  const draft = structuredClone(valid);
  change(draft);
  return draft;
}

describe('sanitizeDraft', () => {
  it('accepts a well-formed draft unchanged', () => {
    expect(sanitizeDraft(valid)).toEqual({ ok: true, draft: valid });
  });

  it.each([
    [
      'zero-width and bidi characters in the title',
      (d: Draft) => void (d.title = 'AAPL\u200B — \u202Eup'),
      'title',
      'AAPL — up',
    ],
    [
      'control characters in the thesis',
      (d: Draft) => void (d.thesis = 'a\u0000b\u001B\r\nc'),
      'thesis',
      'ab\nc',
    ],
    [
      'extra spaces in the excerpt',
      (d: Draft) => void (d.source.excerpt = '  a \n\t b  '),
      'source.excerpt',
      'a b',
    ],
  ])('strips %s', (_name, change, path, expected) => {
    const result = sanitizeDraft(withChange(change));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const value = path
      .split('.')
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], result.draft);
    expect(value).toBe(expected);
  });

  it('drops duplicate tickers', () => {
    const result = sanitizeDraft(withChange((d) => void (d.tickers = ['AAPL', 'AAPL', 'MSFT'])));
    expect(result.ok && result.draft.tickers).toEqual(['AAPL', 'MSFT']);
  });

  it.each([
    ['not an object', 'draft', ''],
    ['null', null, ''],
    ['an unknown key', withChange((d) => Object.assign(d, { owner: 'someone' })), ''],
    ['an unknown source key', withChange((d) => Object.assign(d.source, { html: '<b>' })), 'source'],
    ['a missing title', withChange((d) => Reflect.deleteProperty(d, 'title')), 'title'],
    ['an empty title', withChange((d) => void (d.title = '   ')), 'title'],
    ['a title of invisible characters', withChange((d) => void (d.title = '\u200B\u0000')), 'title'],
    [
      'a title over the limit',
      withChange((d) => void (d.title = 'x'.repeat(DRAFT_LIMITS.title + 1))),
      'title',
    ],
    ['a huge thesis', withChange((d) => void (d.thesis = 'x'.repeat(10_000_000))), 'thesis'],
    [
      'a thesis over the limit',
      withChange((d) => void (d.thesis = 'x'.repeat(DRAFT_LIMITS.thesis + 1))),
      'thesis',
    ],
    [
      'an excerpt over the limit',
      withChange((d) => void (d.source.excerpt = 'x'.repeat(DRAFT_LIMITS.excerpt + 1))),
      'source.excerpt',
    ],
    [
      'a non-string thesis',
      withChange((d) => Object.assign(d, { thesis: { toString: () => 'x' } })),
      'thesis',
    ],
    ['public visibility', withChange((d) => void (d.visibility = 'public')), 'visibility'],
    [
      'too many tickers',
      withChange((d) => void (d.tickers = Array.from({ length: 11 }, (_, i) => `T${i}`))),
      'tickers',
    ],
    ['a lower-case ticker', withChange((d) => void (d.tickers = ['aapl'])), 'tickers.0'],
    ['a markup ticker', withChange((d) => void (d.tickers = ['AAPL', '<img src=x>'])), 'tickers.1'],
    ['a ticker with a space', withChange((d) => void (d.tickers = ['BRK B'])), 'tickers.0'],
    ['an exchange-prefixed ticker', withChange((d) => void (d.tickers = ['NASDAQ:AAPL'])), 'tickers.0'],
    ['a javascript: URL', withChange((d) => void (d.source.url = 'javascript:alert(1)')), 'source.url'],
    [
      'a data: URL',
      withChange((d) => void (d.source.url = 'data:text/html,<script>x</script>')),
      'source.url',
    ],
    ['a file: URL', withChange((d) => void (d.source.url = 'file:///etc/passwd')), 'source.url'],
    [
      'a URL with credentials',
      withChange((d) => void (d.source.url = 'https://u:p@example.com/')),
      'source.url',
    ],
    ['a relative URL', withChange((d) => void (d.source.url = '/quote/AAPL')), 'source.url'],
    [
      'a URL over the limit',
      withChange((d) => void (d.source.url = `https://example.com/${'a'.repeat(DRAFT_LIMITS.url)}`)),
      'source.url',
    ],
    ['a prototype key', JSON.parse('{"__proto__":{"polluted":true}}'), ''],
  ])('rejects %s', (_name, input, path) => {
    const result = sanitizeDraft(input);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.length).toBeGreaterThan(0);
    expect(result.errors.map((error) => error.path)).toContain(path);
    for (const error of result.errors) expect(error.code).toMatch(/^[a-z_]+$/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reports every problem with its path, and never throws', () => {
    const result = sanitizeDraft({ title: '', thesis: 1, tickers: 'AAPL', visibility: 'public', source: {} });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((error) => error.path).sort()).toEqual(
      ['source.excerpt', 'source.title', 'source.url', 'thesis', 'tickers', 'title', 'visibility'].sort(),
    );
  });

  it('is the schema the draft type comes from', () => {
    expect(playbookDraftSchema.parse(valid)).toEqual(valid);
  });
});
