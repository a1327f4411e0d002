// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { buildDraft } from '@/lib/finance/draft';
import { sanitizeDraft } from '@/lib/finance/schema';
import { siteForUrl } from '@/lib/finance/sites';
import { detectTickers, type TickerSource } from '@/lib/finance/tickers';
import { loadFixture } from './load-fixture';

interface FixtureCase {
  fixture: string;
  url: string;
  site: string;
  tickers: string[];
  /** Source of the first ticker. */
  firstSource: TickerSource;
  title: string;
  /** The lead paragraph begins with this. */
  lead: string;
}

const cases: FixtureCase[] = [
  {
    fixture: 'yahoo-finance.html',
    url: 'https://finance.yahoo.com/quote/BRK-B/',
    site: 'yahoo-finance',
    tickers: ['BRK.B'],
    firstSource: 'url',
    title: 'Berkshire Hathaway Inc. (BRK-B)',
    lead: 'Berkshire Hathaway Inc., through its subsidiaries',
  },
  {
    fixture: 'google-finance.html',
    url: 'https://www.google.com/finance/quote/AAPL:NASDAQ?hl=en',
    site: 'google-finance',
    tickers: ['AAPL'],
    firstSource: 'url',
    title: 'AAPL — Apple Inc',
    lead: 'Apple designs consumer electronics',
  },
  {
    fixture: 'marketwatch.html',
    url: 'https://www.marketwatch.com/investing/stock/nvda',
    site: 'marketwatch',
    tickers: ['NVDA', 'AMD'],
    firstSource: 'url',
    title: 'NVDA — NVIDIA Corp.',
    lead: 'Nvidia shares climbed',
  },
  {
    fixture: 'seeking-alpha-symbol.html',
    url: 'https://seekingalpha.com/symbol/TSLA',
    site: 'seeking-alpha',
    tickers: ['TSLA'],
    firstSource: 'url',
    title: 'Tesla, Inc. (TSLA)',
    lead: 'Deliveries beat estimates',
  },
  {
    fixture: 'seeking-alpha-article.html',
    url: 'https://seekingalpha.com/article/4700000-microsoft-cloud-margins-hold-up',
    site: 'seeking-alpha',
    tickers: ['MSFT', 'AMZN'],
    firstSource: 'json-ld',
    title: 'MSFT — Microsoft: Cloud Margins Hold Up Better Than Feared',
    lead: 'Microsoft Corporation (NASDAQ:MSFT) reported',
  },
  {
    fixture: 'investing-com.html',
    url: 'https://www.investing.com/equities/apple-computer-inc',
    site: 'investing-com',
    tickers: ['AAPL'],
    firstSource: 'title',
    title: 'Apple Inc (AAPL)',
    lead: 'Apple reported record services revenue',
  },
  {
    fixture: 'finviz.html',
    url: 'https://finviz.com/quote.ashx?t=AMD&p=d',
    site: 'finviz',
    tickers: ['AMD'],
    firstSource: 'url',
    title: 'AMD - Advanced Micro Devices Inc Stock Price and Quote',
    lead: 'Advanced Micro Devices operates',
  },
  {
    fixture: 'tradingview.html',
    url: 'https://www.tradingview.com/symbols/XETR-SAP/',
    site: 'tradingview',
    tickers: ['SAP.DE'],
    firstSource: 'url',
    title: 'SAP.DE — SAP SE',
    lead: 'SAP keeps moving customers',
  },
  {
    fixture: 'nasdaq.html',
    url: 'https://www.nasdaq.com/market-activity/stocks/msft',
    site: 'nasdaq',
    tickers: ['MSFT'],
    firstSource: 'url',
    title: 'Microsoft Corporation Common Stock (MSFT)',
    lead: 'Microsoft develops and supports software',
  },
  {
    fixture: 'sec-edgar-filing.html',
    url: 'https://www.sec.gov/Archives/edgar/data/320193/000032019324000123/aapl-20240928.htm',
    site: 'sec-edgar',
    tickers: ['AAPL'],
    firstSource: 'url',
    title: 'AAPL — aapl-20240928',
    lead: 'The Company designs, manufactures',
  },
  {
    fixture: 'sec-edgar-browse.html',
    url: 'https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=AMZN&type=10-K',
    site: 'sec-edgar',
    tickers: ['AMZN'],
    firstSource: 'url',
    title: 'AMZN — EDGAR Search Results',
    lead: 'SIC: 5961',
  },
  {
    fixture: 'cnbc.html',
    url: 'https://www.cnbc.com/quotes/.SPX',
    site: 'cnbc',
    tickers: ['^SPX', 'SPY'],
    firstSource: 'url',
    title: '^SPX — S&P 500 Index (.SPX)',
    lead: 'Stocks closed higher',
  },
  {
    fixture: 'bloomberg-quote.html',
    url: 'https://www.bloomberg.com/quote/7203:JP',
    site: 'bloomberg',
    tickers: ['7203.T'],
    firstSource: 'url',
    title: '7203.T — Toyota Motor Corp',
    lead: 'Toyota manufactures passenger cars',
  },
  {
    fixture: 'bloomberg-markets.html',
    url: 'https://www.bloomberg.com/markets/stocks',
    site: 'bloomberg',
    tickers: ['NVDA', 'AAPL'],
    firstSource: 'cashtag',
    title: 'NVDA — Stocks Rally as Chipmakers Lead Tech Rebound',
    lead: 'US stocks rose on Tuesday',
  },
  {
    fixture: 'reuters.html',
    url: 'https://www.reuters.com/markets/companies/BRKb.N',
    site: 'reuters',
    tickers: ['BRK.B'],
    firstSource: 'url',
    title: 'BRK.B — Berkshire Hathaway Inc',
    lead: "Berkshire's cash pile reached a record",
  },
];

describe('saved pages of the default finance sites', () => {
  it.each(cases)('$fixture is recognized as $site', ({ url, site }) => {
    expect(siteForUrl(url)?.id).toBe(site);
  });

  it.each(cases)('$fixture names $tickers', ({ fixture, url, tickers, firstSource }) => {
    const detected = detectTickers({ url, document: loadFixture(fixture) });
    expect(detected.map((ticker) => ticker.symbol)).toEqual(tickers);
    expect(detected[0]?.source).toBe(firstSource);
  });

  it.each(cases)('$fixture drafts "$title"', ({ fixture, url, tickers, title, lead }) => {
    const document = loadFixture(fixture);
    const draft = buildDraft({ url, title: document.title, document });
    expect(draft.title).toBe(title);
    expect(draft.tickers).toEqual(tickers);
    expect(draft.visibility).toBe('private');
    expect(draft.source.url).toBe(url);
    // The page's own title, as the draft's title shows it: not the site's `<title>` with its suffix.
    expect(draft.title).toContain(draft.source.title.slice(0, 30));
    expect(draft.source.title).not.toMatch(
      / [|-] (?:Yahoo Finance|Seeking Alpha|Google Finance|Investing\.com)$/,
    );
    expect(draft.source.excerpt.startsWith(lead)).toBe(true);
    expect(draft.thesis).toContain(lead);
    expect(sanitizeDraft(draft)).toEqual({ ok: true, draft });
  });

  it.each(cases)(
    '$fixture: a selection opens the thesis; its tickers rank after the strong page ones',
    ({ fixture, url }) => {
      const document = loadFixture(fixture);
      const selection = 'Rotation into $XOM looks early; energy (NYSE: CVX) lags.';
      const draft = buildDraft({ url, title: document.title, document, selection });
      const page = detectTickers({ url, document });
      const strong = page.filter((t) => ['url', 'json-ld', 'meta'].includes(t.source)).map((t) => t.symbol);
      const weak = page.filter((t) => !strong.includes(t.symbol)).map((t) => t.symbol);
      expect(draft.thesis.startsWith(`${selection}\n\n`)).toBe(true);
      expect(draft.source.excerpt).toBe(buildDraft({ url, title: document.title, document }).source.excerpt);
      expect(draft.tickers).toEqual([...strong, 'XOM', 'CVX', ...weak]);
    },
  );
});
