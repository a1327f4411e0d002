import { describe, expect, it } from 'vitest';
import { siteProblemText } from '@/lib/i18n/problems';
import {
  DEFAULT_SITE_MATCHES,
  FINANCE_SITES,
  parseSitePattern,
  siteForUrl,
  urlMatchesPattern,
} from '@/lib/finance/sites';

// What Chrome accepts in a content script's `matches` for http(s) pages.
const MV3_MATCH_PATTERN = /^(\*|https?):\/\/(\*|(\*\.)?[a-z0-9.-]+)\/\S*$/;

describe('default finance sites', () => {
  it('lists every site the issue names, each with valid MV3 match patterns', () => {
    expect(FINANCE_SITES.map((site) => site.id)).toEqual([
      'yahoo-finance',
      'google-finance',
      'marketwatch',
      'seeking-alpha',
      'investing-com',
      'finviz',
      'tradingview',
      'nasdaq',
      'sec-edgar',
      'cnbc',
      'bloomberg',
      'reuters',
    ]);
    expect(DEFAULT_SITE_MATCHES).toHaveLength(FINANCE_SITES.flatMap((site) => site.matches).length);
    expect(new Set(DEFAULT_SITE_MATCHES).size).toBe(DEFAULT_SITE_MATCHES.length);
    for (const pattern of DEFAULT_SITE_MATCHES) expect(pattern).toMatch(MV3_MATCH_PATTERN);
  });

  it.each([
    ['https://finance.yahoo.com/quote/BRK-B/', 'yahoo-finance', ['BRK.B']],
    ['https://finance.yahoo.com/quote/%5EGSPC/', 'yahoo-finance', ['^GSPC']],
    ['https://finance.yahoo.com/quote/GC%3DF/', 'yahoo-finance', ['GC=F']],
    ['https://finance.yahoo.com/quote/EURUSD=X/', 'yahoo-finance', ['EURUSD=X']],
    ['https://finance.yahoo.com/quote/BTC-USD/history/', 'yahoo-finance', ['BTC-USD']],
    ['https://finance.yahoo.com/quote/VOD.L/', 'yahoo-finance', ['VOD.L']],
    ['https://finance.yahoo.com/quote/7203.T', 'yahoo-finance', ['7203.T']],
    ['https://www.google.com/finance/quote/AAPL:NASDAQ', 'google-finance', ['AAPL']],
    ['https://www.google.com/finance/quote/BRK.B:NYSE?hl=en', 'google-finance', ['BRK.B']],
    ['https://www.google.com/finance/quote/.INX:INDEXSP', 'google-finance', ['^INX']],
    ['https://www.google.com/finance/quote/.DJI:INDEXDJX', 'google-finance', ['^DJI']],
    ['https://www.google.com/finance/quote/VOD:LON', 'google-finance', ['VOD.L']],
    ['https://www.google.com/finance/quote/EUR-USD', 'google-finance', ['EURUSD=X']],
    ['https://www.google.com/finance/quote/BTC-USD', 'google-finance', ['BTC-USD']],
    ['https://www.marketwatch.com/investing/stock/aapl', 'marketwatch', ['AAPL']],
    ['https://www.marketwatch.com/investing/stock/vod?countrycode=uk', 'marketwatch', ['VOD.L']],
    ['https://www.marketwatch.com/investing/fund/spy', 'marketwatch', ['SPY']],
    ['https://www.marketwatch.com/investing/index/spx', 'marketwatch', ['^SPX']],
    ['https://www.marketwatch.com/investing/bond/tmubmusd10y', 'marketwatch', []],
    ['https://seekingalpha.com/symbol/AAPL/earnings', 'seeking-alpha', ['AAPL']],
    ['https://seekingalpha.com/article/4700000-apple-services', 'seeking-alpha', []],
    ['https://www.investing.com/equities/apple-computer-inc', 'investing-com', []],
    ['https://finviz.com/quote.ashx?t=BRK-B&p=d', 'finviz', ['BRK.B']],
    ['https://www.tradingview.com/symbols/NASDAQ-AAPL/', 'tradingview', ['AAPL']],
    ['https://www.tradingview.com/symbols/LSE-VOD/', 'tradingview', ['VOD.L']],
    ['https://www.tradingview.com/symbols/BITSTAMP-BTCUSD/', 'tradingview', ['BTCUSD']],
    ['https://www.tradingview.com/symbols/SPY/', 'tradingview', ['SPY']],
    ['https://www.nasdaq.com/market-activity/stocks/aapl', 'nasdaq', ['AAPL']],
    ['https://www.nasdaq.com/market-activity/etf/qqq/news-headlines', 'nasdaq', ['QQQ']],
    ['https://www.nasdaq.com/market-activity/index/comp', 'nasdaq', ['^COMP']],
    ['https://www.nasdaq.com/market-activity/earnings', 'nasdaq', []],
    [
      'https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm',
      'sec-edgar',
      ['AAPL'],
    ],
    [
      'https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/0000320193-24-000123-index.htm',
      'sec-edgar',
      [],
    ],
    ['https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=0000320193', 'sec-edgar', []],
    ['https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=msft&type=10-K', 'sec-edgar', ['MSFT']],
    ['https://www.cnbc.com/quotes/.SPX', 'cnbc', ['^SPX']],
    ['https://www.cnbc.com/quotes/AAPL?qsearchterm=apple', 'cnbc', ['AAPL']],
    ['https://www.bloomberg.com/quote/AAPL:US', 'bloomberg', ['AAPL']],
    ['https://www.bloomberg.com/quote/VOD:LN', 'bloomberg', ['VOD.L']],
    ['https://www.bloomberg.com/quote/SPX:IND', 'bloomberg', ['^SPX']],
    ['https://www.bloomberg.com/quote/EURUSD:CUR', 'bloomberg', ['EURUSD=X']],
    ['https://www.bloomberg.com/markets/stocks', 'bloomberg', []],
    ['https://www.reuters.com/markets/companies/AAPL.OQ', 'reuters', ['AAPL']],
    ['https://www.reuters.com/markets/companies/BRKb.N', 'reuters', ['BRK.B']],
    ['https://www.reuters.com/markets/quote/VOD.L', 'reuters', ['VOD.L']],
    ['https://www.reuters.com/markets/us/stocks-rally-2025-07-01/', 'reuters', []],
  ])('%s is %s naming %j', (url, id, tickers) => {
    const site = siteForUrl(url);
    expect(site?.id).toBe(id);
    expect(site?.tickersFromUrl(new URL(url))).toEqual(tickers);
  });

  it.each([
    'https://finance.yahoo.com/',
    'https://www.google.com/search?q=finance',
    'https://evil.example/finance.yahoo.com/quote/AAPL',
    'https://finance.yahoo.com.evil.example/quote/AAPL',
    'ftp://finance.yahoo.com/quote/AAPL',
    'javascript:alert(1)',
    'not a url',
    '',
  ])('%s is no default site', (url) => {
    expect(siteForUrl(url)).toBeUndefined();
  });
});

describe('urlMatchesPattern', () => {
  it.each([
    ['*://finviz.com/quote.ashx*', 'https://finviz.com/quote.ashx?t=AMD', true],
    ['*://finviz.com/quote.ashx*', 'http://finviz.com/quote.ashx', true],
    ['*://finviz.com/quote.ashx*', 'https://finviz.com/screener.ashx', false],
    ['https://*.example.com/*', 'https://example.com/a', true],
    ['https://*.example.com/*', 'https://news.example.com/a', true],
    ['https://*.example.com/*', 'https://badexample.com/a', false],
    ['https://*.example.com/*', 'http://example.com/a', false],
    ['https://example.com/*', 'https://example.com:8443/x', true],
    ['https://example.com/a.b/*', 'https://example.com/aXb/c', false],
    ['not a pattern', 'https://example.com/', false],
  ])('%s vs %s → %s', (pattern, url, expected) => {
    expect(urlMatchesPattern(url, pattern)).toBe(expected);
  });
});

describe('parseSitePattern', () => {
  it.each([
    ['example.com', 'https://example.com/*'],
    ['  Example.COM  ', 'https://example.com/*'],
    ['https://www.example.com/markets/today?x=1#y', 'https://www.example.com/*'],
    ['http://example.com', 'http://example.com/*'],
    ['*://example.com/*', '*://example.com/*'],
    ['*.example.com', 'https://*.example.com/*'],
    ['https://*.example.co.uk/', 'https://*.example.co.uk/*'],
    ['example.com:8080', 'https://example.com/*'],
    ['localhost', 'https://localhost/*'],
    ['http://127.0.0.1:5173/demo', 'http://127.0.0.1/*'],
    ['bücher.example', 'https://xn--bcher-kva.example/*'],
  ])('%j → %s', (input, pattern) => {
    const result = parseSitePattern(input);
    expect(result).toEqual({
      ok: true,
      pattern,
      host: pattern.replace(/^[^/]+\/\//, '').replace(/\/\*$/, ''),
    });
    if (result.ok) expect(result.pattern).toMatch(MV3_MATCH_PATTERN);
  });

  it.each([
    ['', /enter a site/i],
    ['   ', /enter a site/i],
    [null, /enter a site/i],
    ['*', /every site/i],
    ['<all_urls>', /not a valid host/i],
    ['*://*/*', /every site/i],
    ['https://*/*', /every site/i],
    ['*.com', /wildcard/i],
    ['ex*ample.com', /every site/i],
    ['file:///etc/passwd', /only http and https/i],
    ['ftp://example.com', /only http and https/i],
    ['javascript:alert(1)', /only http and https/i],
    ['chrome://settings', /only http and https/i],
    ['https://user:pass@example.com/', /user name or password/i],
    ['exa mple.com', /no spaces/i],
    ['com', /full domain/i],
    ['-bad-.example.com', /not a valid host/i],
    [`${'a'.repeat(300)}.com`, /at most 253/i],
  ])('%j is refused', (input, message) => {
    const result = parseSitePattern(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(siteProblemText(result.problem, result.input)).toMatch(message);
  });
});
