import { describe, expect, it } from 'vitest';
import { isFalsePositive, normalizeTicker, TICKER_PATTERN } from '@/lib/finance/symbols';

describe('normalizeTicker', () => {
  it.each([
    ['AAPL', 'AAPL'],
    ['aapl', 'AAPL'],
    ['$AAPL', 'AAPL'],
    ['  MSFT  ', 'MSFT'],
    // share classes, however written
    ['BRK.B', 'BRK.B'],
    ['BRK-B', 'BRK.B'],
    ['brk/b', 'BRK.B'],
    ['$brk-b', 'BRK.B'],
    ['BF.B', 'BF.B'],
    // crypto pairs keep their dash
    ['BTC-USD', 'BTC-USD'],
    ['eth-usdt', 'ETH-USDT'],
    // indices, futures, currencies
    ['^GSPC', '^GSPC'],
    ['^N225', '^N225'],
    ['.SPX', '^SPX'],
    ['.INX', '^INX'],
    ['GC=F', 'GC=F'],
    ['es=f', 'ES=F'],
    ['EURUSD=X', 'EURUSD=X'],
    ['JPY=X', 'JPY=X'],
    // exchange prefixes and suffixes
    ['NASDAQ:AAPL', 'AAPL'],
    ['NYSE: BRK.B', 'BRK.B'],
    ['AAPL:NASDAQ', 'AAPL'],
    ['LON:VOD', 'VOD.L'],
    ['VOD:LON', 'VOD.L'],
    ['VOD.L', 'VOD.L'],
    ['7203.T', '7203.T'],
    ['TYO:7203', '7203.T'],
    ['7203:JP', '7203.T'],
    ['0700.HK', '0700.HK'],
    ['HKG:0700', '0700.HK'],
    ['XETR:SAP', 'SAP.DE'],
    ['SHOP.TO', 'SHOP.TO'],
    ['TSX:SHOP', 'SHOP.TO'],
    // zero-width and full-width disguises
    ['AA\u200BPL', 'AAPL'],
    ['\uFEFFNVDA', 'NVDA'],
    ['ＡＡＰＬ', 'AAPL'],
  ])('%j → %s', (raw, expected) => {
    expect(normalizeTicker(raw)).toBe(expected);
    expect(expected).toMatch(TICKER_PATTERN);
  });

  it.each([
    [''],
    ['   '],
    ['$'],
    ['100'],
    ['$5B'],
    ['foo bar'],
    ['AAPL MSFT'],
    ['TOOLONGSYMBOL'],
    ['A'.repeat(10_000)],
    ['<script>'],
    ['AAPL"onmouseover="x'],
    ['javascript:alert(1)'],
    ['FOO:BAR'],
    ['NASDAQ:AAPL:X'],
    ['LON:VOD.X.Y'],
    ['^'],
    ['=F'],
    ['BRK..B'],
    ['AAPL\n'.repeat(3)],
    [null],
    [undefined],
    [42],
    [{ toString: () => 'AAPL' }],
  ])('%j is not a ticker', (raw) => {
    expect(normalizeTicker(raw)).toBeNull();
  });
});

describe('isFalsePositive', () => {
  it.each([
    'CEO',
    'CFO',
    'ETF',
    'USD',
    'EUR',
    'IPO',
    'GDP',
    'CPI',
    'EPS',
    'AI',
    'US',
    'UK',
    'EST',
    'EDT',
    'PST',
    'UTC',
    'GMT',
    'NYSE',
    'SEC',
    'Q1',
    'Q4',
    'FY',
    'YOY',
    'I',
    'A',
  ])('%s is rejected from every weak source', (word) => {
    expect(isFalsePositive(word)).toBe(true);
    expect(isFalsePositive(word, true)).toBe(true);
  });

  it.each(['ON', 'NOW', 'ALL', 'IT', 'THE'])('%s is rejected only as a bare word', (word) => {
    expect(isFalsePositive(word)).toBe(false);
    expect(isFalsePositive(word, true)).toBe(true);
  });

  it.each(['AAPL', 'NVDA', 'BRK.B', 'F', 'T'])('%s is a ticker', (symbol) => {
    expect(isFalsePositive(symbol, true)).toBe(false);
  });
});
