// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import {
  DETECTION_LIMITS,
  detectTickers,
  leadingText,
  TICKER_PATTERN,
  visibleText,
} from '@/lib/finance/tickers';
import { htmlDocument } from './load-fixture';
import { cpuNow, linearBound } from '../../fixtures/linearTime';

const PLAIN_PAGE = 'https://blog.example/post';

function symbols(input: Parameters<typeof detectTickers>[0]): string[] {
  return detectTickers(input).map((ticker) => ticker.symbol);
}

function page(head: string, body = ''): Document {
  return htmlDocument(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`);
}

/** Counts the nodes every tree walker of `document` looks at: work in visits, not in milliseconds. */
function countVisits(document: Document): () => number {
  let visits = 0;
  const create = document.createTreeWalker.bind(document);
  document.createTreeWalker = (root: Node, whatToShow?: number, filter?: NodeFilter | null) =>
    create(root, whatToShow, {
      acceptNode(node: Node) {
        visits++;
        if (!filter) return 1;
        return typeof filter === 'function' ? filter(node) : filter.acceptNode(node);
      },
    });
  return () => visits;
}

describe('detectTickers: JSON-LD', () => {
  it.each([
    ['a top-level object', '{"@type":"Corporation","tickerSymbol":"NASDAQ:AAPL"}', ['AAPL']],
    ['an array of objects', '[{"@type":"WebPage"},{"@type":"Corporation","tickerSymbol":"MSFT"}]', ['MSFT']],
    ['@graph', '{"@graph":[{"@type":"NewsArticle","about":{"tickerSymbol":"NYSE:BRK.B"}}]}', ['BRK.B']],
    ['an array of symbols', '{"tickerSymbol":["AAPL","LON:VOD"]}', ['AAPL', 'VOD.L']],
    ['a strong source keeps a word that is also a ticker', '{"tickerSymbol":"NYSE:ON"}', ['ON']],
    ['malformed JSON', '{"tickerSymbol": "AAPL",', []],
    ['JSON that is not an object', '"AAPL"', []],
    ['a non-string symbol', '{"tickerSymbol":{"$":"AAPL"}}', []],
    ['a hostile symbol', '{"tickerSymbol":"<img src=x onerror=alert(1)>"}', []],
  ])('%s', (_name, json, expected) => {
    const document = page(`<script type="application/ld+json">${json}</script>`);
    expect(symbols({ url: PLAIN_PAGE, document })).toEqual(expected);
  });

  it('survives deeply nested JSON-LD without recursing without end', () => {
    const deep = `${'{"a":'.repeat(5_000)}{"tickerSymbol":"AAPL"}${'}'.repeat(5_000)}`;
    const document = page(`<script type="application/ld+json">${deep}</script>`);
    expect(() => detectTickers({ url: PLAIN_PAGE, document })).not.toThrow();
  });

  it('ignores ordinary scripts that mention tickerSymbol', () => {
    const document = page('<script>var x = {"tickerSymbol":"EVIL"}</script>');
    expect(symbols({ url: PLAIN_PAGE, document })).toEqual([]);
  });
});

describe('detectTickers: meta tags', () => {
  it.each([
    ['name="ticker"', '<meta name="ticker" content="NVDA">', ['NVDA']],
    [
      'name="tickers", several',
      '<meta name="tickers" content="AAPL, MSFT;GOOGL">',
      ['AAPL', 'MSFT', 'GOOGL'],
    ],
    ['microdata', '<meta itemprop="tickerSymbol" content="NYSE:KO">', ['KO']],
    [
      'twitter label/data pair',
      '<meta name="twitter:label1" content="Ticker"><meta name="twitter:data1" content="TSLA">',
      ['TSLA'],
    ],
    [
      'twitter data without a ticker label',
      '<meta name="twitter:label1" content="Reading time"><meta name="twitter:data1" content="AAPL">',
      [],
    ],
    [
      'og:title with an exchange-qualified symbol',
      '<meta property="og:title" content="Shares of Apple (NASDAQ: AAPL) slip">',
      ['AAPL'],
    ],
    [
      'og:title with a parenthesized symbol',
      '<meta property="og:title" content="Apple Inc. (AAPL) Stock Price">',
      ['AAPL'],
    ],
    ['a false positive in a weak meta tag', '<meta name="ticker" content="USD">', []],
    ['og:title in plain words', '<meta property="og:title" content="The CEO of the ETF issuer on GDP">', []],
  ])('%s', (_name, head, expected) => {
    expect(symbols({ url: PLAIN_PAGE, document: page(head) })).toEqual(expected);
  });

  it('reads the iXBRL trading symbol of an EDGAR filing', () => {
    const document = page('', '<ix:nonNumeric name="dei:TradingSymbol">MSFT</ix:nonNumeric>');
    expect(detectTickers({ url: PLAIN_PAGE, document })).toEqual([
      { symbol: 'MSFT', source: 'meta', confidence: 0.8 },
    ]);
  });
});

describe('detectTickers: cashtags in the page', () => {
  it.each([
    ['plain', 'Buying $AAPL today', ['AAPL']],
    ['lower case', 'long $nvda into earnings', ['NVDA']],
    ['mixed case is a word', 'I want $Money and $Fame', []],
    ['share class', 'Holding $BRK.B forever', ['BRK.B']],
    ['crypto pair', 'Watching $BTC-USD', ['BTC-USD']],
    ['end of sentence', 'My pick is $TSLA.', ['TSLA']],
    ['money is not a ticker', 'It costs $100 and raised $5B', []],
    ['false positives', 'Priced in $USD and $EUR, says the $CEO', []],
    ['glued to a word', 'US$AAPL or a$MSFT', []],
    ['most frequent first', '$MSFT once; $AMD, $AMD and $AMD', ['AMD', 'MSFT']],
  ])('%s', (_name, body, expected) => {
    expect(symbols({ url: PLAIN_PAGE, document: page('', `<p>${body}</p>`) })).toEqual(expected);
  });

  it('skips the page chrome: menus, headers, footers and sidebars of related tickers', () => {
    const body =
      '<header>$HDR</header><nav>$NAV</nav><main><p>Apple (NASDAQ: AAPL) rose.</p><aside>Related: $REL</aside></main><footer>$FTR</footer>';
    expect(detectTickers({ url: PLAIN_PAGE, document: page('', body) })).toEqual([
      { symbol: 'AAPL', source: 'cashtag', confidence: 0.6 },
    ]);
  });

  it('reads visible text only: scripts, styles and templates say nothing', () => {
    const body =
      '<script>"$EVIL"</script><style>/* $CSS */</style><template>$TPL</template><noscript>$NOS</noscript><p>$GOOD</p>';
    expect(symbols({ url: PLAIN_PAGE, document: page('', body) })).toEqual(['GOOD']);
  });
});

describe('detectTickers: title', () => {
  it.each([
    ['leading symbol', '<title>AMD - Advanced Micro Devices Stock Quote</title>', ['AMD']],
    ['parenthesized', '<title>Apple Inc (AAPL) Stock Price Today</title>', ['AAPL']],
    ['exchange-qualified', '<title>Why NYSE:F is cheap</title>', ['F']],
    ['plain words only', '<title>Markets Today: CPI, GDP and the FED</title>', []],
    ['a false positive leading', '<title>CEO - Interview</title>', []],
  ])('%s', (_name, head, expected) => {
    const detected = detectTickers({ url: PLAIN_PAGE, document: page(head) });
    expect(detected.map((ticker) => ticker.symbol)).toEqual(expected);
    for (const ticker of detected) expect(ticker.source).toBe('title');
  });
});

describe('detectTickers: selection', () => {
  it.each([
    ['cashtags', 'Pair $XOM against $CVX', ['XOM', 'CVX']],
    ['exchange-qualified', 'Ford (NYSE: F) and Toyota (TYO:7203)', ['F', '7203.T']],
    ['bare capitals', 'I think NVDA and AMD both run', ['NVDA', 'AMD']],
    ['false positives among bare capitals', 'The CEO and CFO said EPS and GDP beat in Q1 (EST)', []],
    ['prose words among bare capitals', 'IT IS ON NOW, so BUY', []],
    ['explicit prose words are kept', 'Semis like $ON and (NYSE: NOW)', ['ON', 'NOW']],
    [
      'shouting keeps explicit mentions only',
      'THIS IS THE BEST STOCK EVER SAYS EVERY ANALYST BUY $PLTR NOW',
      ['PLTR'],
    ],
    ['mixed case', 'buy $Tsla? no: $tsla and $TSLA', ['TSLA']],
    ['zero-width characters', 'Buy $AA\u200BPL and N\u200DVDA', ['AAPL', 'NVDA']],
  ])('%s', (_name, selection, expected) => {
    const detected = detectTickers({ url: PLAIN_PAGE, selection });
    expect(detected.map((ticker) => ticker.symbol)).toEqual(expected);
    for (const ticker of detected) expect(ticker.source).toBe('selection');
  });

  it('ranks a bare word below an explicit mention', () => {
    const [explicit, bare] = detectTickers({ url: PLAIN_PAGE, selection: 'NVDA vs $AMD' });
    expect(explicit).toMatchObject({ symbol: 'AMD' });
    expect(bare).toMatchObject({ symbol: 'NVDA' });
    expect(explicit.confidence).toBeGreaterThan(bare.confidence);
  });
});

describe('detectTickers: sources together', () => {
  it('orders by source strength and keeps each symbol once, with its strongest source', () => {
    const document = page(
      '<title>Apple (AAPL) and Google (GOOGL)</title><meta name="ticker" content="MSFT">' +
        '<script type="application/ld+json">{"tickerSymbol":"NASDAQ:AAPL"}</script>',
      '<p>$TSLA $AAPL $MSFT</p>',
    );
    const detected = detectTickers({
      url: 'https://finance.yahoo.com/quote/NVDA/',
      document,
      selection: '$AMD and $AAPL',
    });
    expect(detected.map(({ symbol, source }) => [symbol, source])).toEqual([
      ['NVDA', 'url'],
      ['AAPL', 'json-ld'],
      ['MSFT', 'meta'],
      ['AMD', 'selection'],
      ['TSLA', 'cashtag'],
      ['GOOGL', 'title'],
    ]);
    const confidences = detected.map((ticker) => ticker.confidence);
    expect([...confidences].sort((a, b) => b - a)).toEqual(confidences);
  });

  it('a strong URL keeps a word that is also a ticker', () => {
    expect(symbols({ url: 'https://finviz.com/quote.ashx?t=ON' })).toEqual(['ON']);
  });

  it('on a site the user added, only an explicit symbol parameter counts from the URL', () => {
    expect(symbols({ url: 'https://broker.example/quote?symbol=brk-b' })).toEqual(['BRK.B']);
    expect(symbols({ url: 'https://broker.example/AAPL' })).toEqual([]);
  });

  it.each(['', 'not a url', 'javascript:alert(1)'])('tolerates the URL %j', (url) => {
    expect(symbols({ url, selection: '$AAPL' })).toEqual(['AAPL']);
  });
});

describe('detectTickers: bounded work', () => {
  it(`returns at most ${DETECTION_LIMITS.tickers} tickers`, () => {
    const many = Array.from(
      { length: 40 },
      (_, i) => `$T${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(65 + Math.floor(i / 26))}`,
    );
    const detected = detectTickers({
      url: PLAIN_PAGE,
      document: page('', `<p>${many.join(' ')}</p>`),
      selection: many.join(' '),
    });
    expect(detected).toHaveLength(DETECTION_LIMITS.tickers);
  });

  it('copes with hundreds of thousands of $ tokens in linear time', () => {
    const body = `<p>${'$A$B $ $$ $C '.repeat(50_000)}</p>`;
    const selection = '$ $X '.repeat(100_000);
    const document = page('', body);
    const started = cpuNow();
    const detected = detectTickers({ url: PLAIN_PAGE, document, selection });
    expect(cpuNow() - started).toBeLessThan(linearBound(body + selection, 1_000));
    expect(detected.length).toBeLessThanOrEqual(DETECTION_LIMITS.tickers);
    for (const ticker of detected) expect(ticker.symbol).toMatch(TICKER_PATTERN);
  });

  it('does not scan body text beyond its limit', () => {
    const filler = 'x'.repeat(DETECTION_LIMITS.bodyText);
    const document = page('', `<p>${filler}</p><p>$LATE</p>`);
    expect(symbols({ url: PLAIN_PAGE, document })).toEqual([]);
  });

  it('every symbol it returns is safe for the background', () => {
    const hostile = '$<b>X</b> $"onload=1 $AAPL\u202E $\u0000 (<script>) NYSE:<x> $BRK.B';
    const detected = detectTickers({
      url: PLAIN_PAGE,
      document: page(`<title>${hostile}</title>`, `<p>${hostile}</p>`),
      selection: hostile,
    });
    expect(detected.map((ticker) => ticker.symbol)).toEqual(['AAPL', 'BRK.B']);
  });
});

describe('leadingText and visibleText', () => {
  const doc = (body: string) => page('', body);

  it.each([
    [
      'joins text nodes as textContent does',
      '<p><span>$1,184</span><span>.20</span></p>',
      100,
      {},
      '$1,184.20',
    ],
    ['or with a joiner', '<p><span>NVDA</span><span>AMD</span></p>', 100, { joiner: ' ' }, 'NVDA AMD'],
    ['stops at the bound', '<p>abcdef</p><p>ghi</p>', 4, {}, 'abcd'],
    [
      'leaves a skipped element out, its whole subtree',
      '<p>keep</p><nav><p><span>not <b>this</b></span></p></nav><p>this</p>',
      100,
      { skipped: new Set(['NAV']), joiner: '|' },
      'keep|this',
    ],
  ])('%s', (_, body, max, options, expected) => {
    expect(leadingText(doc(body).body, max, options)).toBe(expected);
  });

  it('skips a deep menu whole: one visit for the menu, not one per node inside it', () => {
    const document = doc('<nav></nav><p>$NVDA</p>');
    // A menu 2,000 elements deep with 10,000 text nodes (an ancestor walk per node was 18 s at 5,000).
    let parent: Element = document.querySelector('nav')!;
    for (let i = 0; i < 2_000; i++) parent = parent.appendChild(document.createElement('span'));
    for (let i = 0; i < 10_000; i++) parent.appendChild(document.createTextNode(i % 2 ? '' : '$AMD '));
    const visits = countVisits(document);
    const text = visibleText(document, DETECTION_LIMITS.bodyText);
    expect(text).not.toContain('AMD');
    expect(text).toContain('NVDA');
    // The walker looked at body's children and the paragraph's text: the menu's subtree never.
    expect(visits()).toBeLessThan(10);
  });

  it('bounds a page of empty text nodes and of empty elements alike, in visits', () => {
    const document = doc('<p id="t"></p><div id="d"></div><p>$NVDA</p>');
    const texts = document.getElementById('t')!;
    for (let i = 0; i < 1_500; i++) texts.appendChild(document.createTextNode(''));
    const elements = document.getElementById('d')!;
    for (let i = 0; i < 1_500; i++) elements.appendChild(document.createElement('span'));
    const visits = countVisits(document);
    // Both kinds use up the visits before the last paragraph: bounded, not complete.
    expect(leadingText(document.body, 100, { maxNodes: 1_000 })).toBe('');
    expect(visits()).toBeLessThanOrEqual(1_001);
    texts.replaceChildren();
    expect(leadingText(document.body, 100, { maxNodes: 1_000 })).toBe('');
    expect(leadingText(document.body, 100, { maxNodes: 2_000 })).toBe('$NVDA');
  });

  it('visibleText has a node bound of its own: an endless page of empty elements ends', () => {
    // A walker that never runs out: only a bound on visits ends the read.
    let visits = 0;
    const endless = {
      nodeType: 9,
      createTreeWalker: () => ({
        nextNode: () => {
          visits++;
          return visits > 10_000_000 ? null : { nodeType: 1, tagName: 'SPAN' };
        },
      }),
    };
    const body = { ownerDocument: endless };
    expect(visibleText({ ...endless, body } as unknown as Document, DETECTION_LIMITS.bodyText)).toBe('');
    expect(visits).toBeLessThanOrEqual(100_001);
  });
});
