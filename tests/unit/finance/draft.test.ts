// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import {
  buildDraft,
  buildDraftFromContext,
  DRAFT_LIMITS,
  pageTickers,
  UncitableUrlError,
} from '@/lib/finance/draft';
import { sanitizeDraft } from '@/lib/finance/schema';
import { withoutSiteSuffix } from '@/lib/finance/text';
import { htmlDocument } from './load-fixture';

const ARTICLE = `<!doctype html><html><head>
  <title>Nvidia beats again | Example News</title>
  <meta property="og:title" content="Nvidia beats again">
  <meta name="description" content="Data-center revenue doubled and guidance topped estimates.">
</head><body>
  <nav><p>Markets Economy Technology Opinion and many more sections of this news website here</p></nav>
  <article>
    <h1>Nvidia beats again</h1>
    <p>By Reporter</p>
    <p>Nvidia (NASDAQ: NVDA) reported data-center revenue that doubled from a year earlier, and guided above estimates.</p>
  </article>
</body></html>`;

const XSS = `<img src=x onerror="alert(1)"><script>alert('x')</script>"'><svg/onload=alert(2)>`;

function expectValid(draft: ReturnType<typeof buildDraft>): void {
  expect(sanitizeDraft(draft)).toEqual({ ok: true, draft });
}

describe('buildDraft', () => {
  it('drafts a page from its headline and lead', () => {
    const document = htmlDocument(ARTICLE);
    const draft = buildDraft({ url: 'https://news.example/nvda#comments', title: document.title, document });
    expect(draft).toEqual({
      title: 'NVDA — Nvidia beats again',
      thesis:
        'Nvidia beats again\n\nNvidia (NASDAQ: NVDA) reported data-center revenue that doubled from a year earlier, and guided above estimates.',
      tickers: ['NVDA'],
      visibility: 'private',
      source: {
        url: 'https://news.example/nvda',
        title: 'Nvidia beats again',
        excerpt:
          'Nvidia (NASDAQ: NVDA) reported data-center revenue that doubled from a year earlier, and guided above estimates.',
      },
    });
    expectValid(draft);
  });

  it('falls back to the meta description and og:title when the page has no h1 or long paragraph', () => {
    const document = htmlDocument(
      '<head><title>T</title><meta property="og:title" content="Oil slips"><meta name="description" content="Brent fell 2% as inventories rose."></head><body><p>Short.</p></body>',
    );
    const draft = buildDraft({ url: 'https://news.example/oil', title: document.title, document });
    expect(draft.title).toBe('Oil slips');
    expect(draft.thesis).toBe('Oil slips\n\nBrent fell 2% as inventories rose.');
    expect(draft.source.excerpt).toBe('Brent fell 2% as inventories rose.');
  });

  it('puts the selection first in the thesis, keeping its paragraphs; the excerpt stays the lead', () => {
    const document = htmlDocument(ARTICLE);
    const selection = '  Margins   will compress.\r\n\r\n\r\n\tCapex   cycles turn.  ';
    const draft = buildDraft({
      url: 'https://news.example/nvda',
      title: document.title,
      document,
      selection,
    });
    expect(draft.thesis).toBe(
      'Margins will compress.\n\nCapex cycles turn.\n\nNvidia beats again\n\nNvidia (NASDAQ: NVDA) reported data-center revenue that doubled from a year earlier, and guided above estimates.',
    );
    expect(draft.source.excerpt).toBe(
      'Nvidia (NASDAQ: NVDA) reported data-center revenue that doubled from a year earlier, and guided above estimates.',
    );
    expectValid(draft);
  });

  it('builds a usable draft with no document at all', () => {
    const draft = buildDraft({ url: 'https://www.example.com/some/page', title: '' });
    expect(draft).toMatchObject({
      title: 'Notes from example.com',
      thesis: 'Notes from example.com',
      tickers: [],
    });
    expectValid(draft);
  });

  it('does not repeat the ticker in a title that already names it', () => {
    const document = htmlDocument('<h1>Why I am buying BRK-B now</h1>');
    const draft = buildDraft({ url: 'https://finance.yahoo.com/quote/BRK-B/', document });
    expect(draft.title).toBe('Why I am buying BRK-B now');
  });

  it('drafts a link: its target is the source and its text the headline', () => {
    const document = htmlDocument(ARTICLE);
    const draft = buildDraft({
      url: 'https://news.example/nvda',
      title: document.title,
      document,
      link: { url: 'https://finance.yahoo.com/quote/AMD/?p=AMD', text: 'AMD shares jump on new accelerator' },
    });
    expect(draft.source).toEqual({
      url: 'https://finance.yahoo.com/quote/AMD/?p=AMD',
      title: 'AMD shares jump on new accelerator',
      excerpt: '',
    });
    expect(draft.tickers).toEqual(['AMD']);
    expect(draft.title).toBe('AMD shares jump on new accelerator');
    expect(draft.thesis).toBe('AMD shares jump on new accelerator');
    expectValid(draft);
  });

  it.each([
    ['file:///home/me/notes.html'],
    ['javascript:alert(1)'],
    ['chrome-extension://abc/popup.html'],
    ['data:text/html,<b>x</b>'],
    ['not a url'],
  ])('refuses to cite %s', (url) => {
    expect(() => buildDraft({ url, title: 'x' })).toThrow(UncitableUrlError);
    expect(() => buildDraft({ url: 'https://ok.example/', link: { url } })).toThrow(UncitableUrlError);
  });

  it('strips credentials and the fragment (a text fragment would repeat the selection)', () => {
    const draft = buildDraft({ url: 'https://user:secret@news.example/a?b=1#:~:text=my%20selection' });
    expect(draft.source.url).toBe('https://news.example/a?b=1');
  });
});

describe('buildDraft with hostile page text', () => {
  it('keeps XSS payloads in the title and selection as literal text', () => {
    const document = htmlDocument(
      `<head><title>${XSS.replace(/</g, '&lt;')}</title></head><body><h1>${XSS.replace(/</g, '&lt;')}</h1></body>`,
    );
    const draft = buildDraft({
      url: 'https://evil.example/',
      title: document.title,
      document,
      selection: XSS,
    });
    expect(draft.thesis).toBe(`${XSS}\n\n${XSS}`);
    expect(draft.source.excerpt).toBe(XSS);
    expect(draft.title).toBe(XSS);
    expect(draft.source.title).toBe(XSS);
    expect(draft.tickers).toEqual([]);
    expectValid(draft);
  });

  it('truncates a huge selection within every limit', () => {
    const selection = `$AAPL ${'lorem ipsum dolor sit amet '.repeat(200_000)}`;
    const draft = buildDraft({ url: 'https://news.example/', title: 'x'.repeat(10_000), selection });
    expect(draft.thesis.length).toBeLessThanOrEqual(DRAFT_LIMITS.thesis);
    expect(draft.thesis.endsWith('…')).toBe(true);
    expect(draft.source.excerpt.length).toBeLessThanOrEqual(DRAFT_LIMITS.excerpt);
    expect(draft.source.title.length).toBeLessThanOrEqual(DRAFT_LIMITS.sourceTitle);
    expect(draft.title.length).toBeLessThanOrEqual(DRAFT_LIMITS.title);
    expect(draft.tickers).toEqual(['AAPL']);
    expectValid(draft);
  });

  it.each([
    ['zero-width', 'Buy\u200B the\u200D dip\uFEFF', 'Buy the dip'],
    ['bidi override', '\u202Edaolnwod\u202C report', 'daolnwod report'],
    ['C0 and C1 controls', 'a\u0000b\u0007c\u001Bd\u0085e\u009Bf', 'abcd\ne' + 'f'],
    ['tabs and odd line breaks', 'one\ttwo\u2028three\u2029four\fend', 'one two\nthree\nfour\nend'],
    ['invisible tag characters', 'hi\u{E0041}\u{E0042}there', 'hithere'],
    ['lone surrogate', 'bad\uD800half', 'bad\uFFFDhalf'],
    ['only invisible', '\u200B\u200B\u0000', ''],
  ])('cleans %s from the selection', (_name, selection, expected) => {
    const draft = buildDraft({ url: 'https://news.example/', title: 'Page', selection });
    expect(draft.thesis).toBe(expected || 'Page');
    expectValid(draft);
  });

  it('never cuts an emoji in half when truncating', () => {
    const draft = buildDraft({ url: 'https://news.example/', title: '😀'.repeat(200) });
    expect(draft.title.length).toBeLessThanOrEqual(DRAFT_LIMITS.title);
    expect(draft.title).toMatch(/^😀+…$/u);
  });

  it('keeps at most the ticker limit', () => {
    const selection = Array.from(
      { length: 30 },
      (_, i) => `$Q${String.fromCharCode(65 + (i % 26))}${i >= 26 ? 'Z' : ''}`,
    ).join(' ');
    const draft = buildDraft({ url: 'https://news.example/', selection });
    expect(draft.tickers).toHaveLength(DRAFT_LIMITS.tickers);
    expectValid(draft);
  });
});

describe('buildDraftFromContext (right-click, no DOM)', () => {
  it.each([
    [
      'a selection',
      {
        selectionText: 'Short $TSLA into delivery numbers',
        pageUrl: 'https://news.example/a',
        pageTitle: 'EV roundup',
      },
      {
        title: 'TSLA — EV roundup',
        thesis: 'Short $TSLA into delivery numbers',
        tickers: ['TSLA'],
        source: {
          url: 'https://news.example/a',
          title: 'EV roundup',
          excerpt: 'Short $TSLA into delivery numbers',
        },
      },
    ],
    [
      'a link',
      {
        linkUrl: 'https://www.nasdaq.com/market-activity/stocks/msft',
        linkText: 'Microsoft quote',
        pageUrl: 'https://news.example/a',
      },
      {
        title: 'MSFT — Microsoft quote',
        thesis: 'Microsoft quote',
        tickers: ['MSFT'],
        source: {
          url: 'https://www.nasdaq.com/market-activity/stocks/msft',
          title: 'Microsoft quote',
          excerpt: '',
        },
      },
    ],
    [
      'a link with no text',
      { linkUrl: 'https://www.cnbc.com/quotes/.SPX', pageUrl: 'https://news.example/a' },
      {
        title: '^SPX — Notes from cnbc.com',
        thesis: 'Notes from cnbc.com',
        tickers: ['^SPX'],
        source: { url: 'https://www.cnbc.com/quotes/.SPX', title: '', excerpt: '' },
      },
    ],
    [
      'a page',
      { pageUrl: 'https://finance.yahoo.com/quote/GC=F/', pageTitle: 'Gold Jun 25 (GC=F) Stock Price' },
      {
        title: 'Gold Jun 25 (GC=F) Stock Price',
        thesis: 'Gold Jun 25 (GC=F) Stock Price',
        tickers: ['GC=F'],
        source: {
          url: 'https://finance.yahoo.com/quote/GC=F/',
          title: 'Gold Jun 25 (GC=F) Stock Price',
          excerpt: '',
        },
      },
    ],
  ])('drafts %s', (_name, input, expected) => {
    const draft = buildDraftFromContext(input);
    expect(draft).toEqual({ visibility: 'private', ...expected });
    expectValid(draft);
  });

  it('does not touch a DOM', () => {
    const original = globalThis.document;
    Object.defineProperty(globalThis, 'document', { value: undefined, configurable: true });
    try {
      expect(
        buildDraftFromContext({ pageUrl: 'https://news.example/', selectionText: '$AAPL' }).tickers,
      ).toEqual(['AAPL']);
    } finally {
      Object.defineProperty(globalThis, 'document', { value: original, configurable: true });
    }
  });
});

/**
 * The right-click drafts with lib/finance/contextDraft.ts alone (the worker bundles no DOM reader):
 * it must draft what the page's `buildDraft` drafts of the same click with no document.
 */
describe('buildDraftFromContext drafts as buildDraft does with no document', () => {
  const clicks = [
    {
      pageUrl: 'https://news.example/a',
      pageTitle: ' EV\u200b roundup ',
      selectionText: 'Short $TSLA, NYSE: BRK.B',
    },
    { pageUrl: 'https://finance.yahoo.com/quote/GC=F/', pageTitle: 'Gold Jun 25 (GC=F) Stock Price' },
    {
      pageUrl: 'https://www.marketwatch.com/investing/stock/aapl?mod=x',
      selectionText: 'APPLE AND MSFT RALLY HARD TODAY ON NEWS',
    },
    { pageUrl: 'https://news.example/?symbol=nvda', selectionText: 'I like AMD and (INTC) here' },
    { pageUrl: 'https://news.example/', linkUrl: 'https://www.cnbc.com/quotes/.SPX', selectionText: '$AAPL' },
    {
      pageUrl: 'https://news.example/',
      linkUrl: 'https://x.example/',
      linkText: 'Nvidia (NASDAQ: NVDA) beats',
    },
    {
      pageUrl: 'https://news.example/',
      selectionText: `${'word '.repeat(3_000)}$NVDA ${'x'.repeat(20_000)} $AMD`,
    },
    { pageUrl: 'https://news.example/' },
  ];

  it.each(clicks.map((click, index) => [index, click] as const))('click %i', (_index, click) => {
    const link = click.linkUrl ? { url: click.linkUrl, text: click.linkText } : undefined;
    const page = { url: click.pageUrl, title: click.pageTitle, selection: click.selectionText, link };
    expect(buildDraftFromContext(click)).toEqual(buildDraft(page));
  });

  it('refuses the same addresses', () => {
    for (const click of [
      { pageUrl: 'javascript:alert(1)' },
      { pageUrl: 'https://ok.example/', linkUrl: 'file:///x' },
    ]) {
      const link = click.linkUrl ? { url: click.linkUrl } : undefined;
      expect(() => buildDraft({ url: click.pageUrl, link })).toThrow(UncitableUrlError);
      expect(() => buildDraftFromContext(click)).toThrow(UncitableUrlError);
    }
  });
});

/** Spies on the `textContent` getter wherever `element`'s prototype chain defines it. */
function spyOnTextContent(element: Element) {
  let owner: object | null = element;
  while (owner && !Object.getOwnPropertyDescriptor(owner, 'textContent'))
    owner = Object.getPrototypeOf(owner);
  if (!owner) throw new Error('no textContent getter');
  return vi.spyOn(owner as { textContent: string | null }, 'textContent', 'get');
}

describe('pageTickers', () => {
  it("lists what a draft of the page lists, the reader's selection left out", () => {
    const url = 'https://news.example/nvda';
    const document = htmlDocument(ARTICLE);
    expect(pageTickers(url, document)).toEqual(buildDraft({ url, document, selection: '' }).tickers);
    expect(pageTickers(url, document)).toEqual(['NVDA']);
    // A selection naming other symbols changes a draft, never the page's own tickers.
    expect(buildDraft({ url, document, selection: 'moved into INTC and PLTR instead' }).tickers).toContain(
      'INTC',
    );
    expect(pageTickers('javascript:alert(1)', document)).toEqual([]);
  });

  // 150 wrappers, each around all the rest: in a browser, `textContent` builds the whole text of
  // each (1.4-2.3 s for a 4.4 MB page on these machines); only the first characters are needed.
  const TEXT = `<p>${'Markets moved on the day. '.repeat(20_000)}</p>`;
  const wrapped = (open: string, close: string, inner: string) =>
    `${open.repeat(150)}${inner}${TEXT}${close.repeat(150)}`;
  it.each([
    [
      'wrappers round the page (quote header scan)',
      'DIV',
      wrapped('<div>', '</div>', '<p>NASDAQ: AAPL $189.20 +1.2%</p>'),
      'AAPL',
    ],
    [
      'a headline round the page',
      'H1',
      `<h1>${wrapped('<span>', '</span>', 'Apple (AAPL) beats')}</h1>`,
      'AAPL',
    ],
    [
      'ticker-symbol markup round the page',
      'DIV',
      wrapped('<div itemprop="tickerSymbol">', '</div>', ''),
      undefined,
    ],
    [
      'XBRL trading-symbol tags round the page',
      'DIV',
      wrapped('<div name="dei:TradingSymbol">', '</div>', ''),
      undefined,
    ],
    ['a lead paragraph round the page', 'P', wrapped('<p>', '</p>', ''), undefined],
  ])('reads %s without building its whole text', (_, tag, body, ticker) => {
    const document = htmlDocument(`<!doctype html><html><body><main>${body}</main></body></html>`);
    const wholeTexts = spyOnTextContent(document.createElement('div'));
    try {
      const url = 'https://news.example/apple';
      const tickers = pageTickers(url, document);
      buildDraft({ url, document });
      expect(wholeTexts.mock.contexts.filter((node) => (node as Element).tagName === tag)).toHaveLength(0);
      if (ticker) expect(tickers).toContain(ticker);
    } finally {
      wholeTexts.mockRestore();
    }
  });
});

describe('good drafts: the headline, not the quote page or the site', () => {
  const quotePage = (story: string) =>
    htmlDocument(`<!doctype html><html><head><title>Apple Inc. (AAPL) quote · Sandbox Markets</title></head>
      <body><main><h1>Apple Inc. (AAPL)</h1><p class="quote">AAPL</p>
      <h2>${story}</h2><p>Services revenue hit a record in the quarter, with subscriptions up across every region.</p></main></body></html>`);

  it('a quote page with a news story is titled by the story', () => {
    const document = quotePage('Apple services revenue hits a record as subscriptions grow');
    const draft = buildDraft({ url: 'https://markets.example/quote/AAPL', title: document.title, document });
    expect(draft.title).toBe('AAPL — Apple services revenue hits a record as subscriptions grow');
    expect(draft.tickers).toEqual(['AAPL']);
  });

  it('a quote page whose h2 is a section, not a story, keeps the company name', () => {
    const document = quotePage('Key statistics');
    const draft = buildDraft({ url: 'https://markets.example/quote/AAPL', title: document.title, document });
    expect(draft.title).toBe('Apple Inc. (AAPL)');
  });

  it('the right-click menu titles a page by its own title without the site', () => {
    const draft = buildDraftFromContext({
      pageUrl: 'https://markets.example/quote/NVDA',
      pageTitle: 'NVIDIA Corporation (NVDA) quote · Sandbox Markets',
    });
    expect(draft.title).toBe('NVIDIA Corporation (NVDA) quote');
  });
});

describe('withoutSiteSuffix', () => {
  it.each([
    ['Nvidia beats again | Example News', 'Nvidia beats again'],
    ['Apple Inc. (AAPL) quote · Sandbox Markets', 'Apple Inc. (AAPL) quote'],
    ['Fed holds rates steady - The Wall Street Journal', 'Fed holds rates steady'],
    ['Nvidia rallies - what it means for AI', 'Nvidia rallies - what it means for AI'],
    ['Short | Site', 'Short | Site'],
    ['No separator at all in this title', 'No separator at all in this title'],
  ])('%s → %s', (title, expected) => expect(withoutSiteSuffix(title)).toBe(expected));

  it('reads a 100,000-character title in one pass (a backtracking one would time out here)', () => {
    const long = `${'a '.repeat(50_000)}| ${'b'.repeat(39)}`;
    expect(withoutSiteSuffix(long)).toBe(`${'a '.repeat(50_000)}`.trimEnd());
  });
});
