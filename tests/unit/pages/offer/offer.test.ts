// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { dismiss, isDismissed } from '@/lib/pages/offer/dismissals';
import { draftOfPage, shouldOffer, tickersOfPage } from '@/lib/pages/offer/offer';

afterEach(() => {
  document.body.replaceChildren();
  getSelection()?.removeAllRanges();
});

describe('the page draft', () => {
  it('is built from the page at the moment it is asked for, selection first', () => {
    location.href = 'https://finance.example/quote/NVDA';
    document.title = 'NVIDIA (NVDA) quote';
    const main = document.createElement('main');
    const h1 = document.createElement('h1');
    h1.textContent = 'NVIDIA keeps compounding';
    const p = document.createElement('p');
    p.textContent =
      'Data-centre revenue keeps compounding as hyperscalers extend capital spending into next year.';
    main.append(h1, p);
    document.body.append(main);
    expect(draftOfPage()?.thesis).toContain('Data-centre revenue');

    const range = document.createRange();
    range.selectNodeContents(h1);
    getSelection()?.addRange(range);
    expect(draftOfPage()?.thesis.startsWith('NVIDIA keeps compounding\n\n')).toBe(true);
    expect(draftOfPage()?.visibility).toBe('private');
  });
});

describe("the page's tickers", () => {
  it('are what the page names now, whatever the reader selected', () => {
    location.href = 'https://finance.example/news/chips';
    document.title = 'Chips';
    const lead = document.createElement('p');
    lead.textContent = 'Nvidia (NASDAQ: NVDA) guided above estimates.';
    const aside = document.createElement('p');
    aside.textContent = 'Some funds moved into INTC and PLTR instead.';
    document.body.append(lead, aside);
    expect(tickersOfPage()).toEqual(['NVDA']);

    const range = document.createRange();
    range.selectNodeContents(aside);
    getSelection()?.addRange(range);
    // A draft starts from the selection; the page's own tickers do not change with it.
    expect(draftOfPage()?.tickers).toEqual(expect.arrayContaining(['INTC', 'PLTR']));
    expect(tickersOfPage()).toEqual(['NVDA']);

    lead.textContent = 'Microsoft (NASDAQ: MSFT) widened its margins.';
    expect(tickersOfPage()).toEqual(['MSFT']);
  });

  it('are none off an http(s) page', () => {
    location.href = 'about:blank';
    expect(tickersOfPage()).toEqual([]);
  });
});

describe('where the offer appears', () => {
  it('offers in the top frame of an http(s) page', () => {
    location.href = 'https://finance.example/quote/AAPL';
    expect(shouldOffer()).toBe(true);
  });

  it.each(['file:///home/me/notes.html', 'about:blank'])('never throws on %s: no offer, no draft', (url) => {
    location.href = url;
    expect(location.href.startsWith('http')).toBe(false);
    expect(shouldOffer()).toBe(false);
    expect(draftOfPage()).toBeUndefined();
  });
});

describe('dismissals', () => {
  it('are remembered per site', async () => {
    expect(await isDismissed('finance.example')).toBe(false);
    await dismiss('finance.example');
    await dismiss('finance.example');
    expect(await isDismissed('finance.example')).toBe(true);
    expect(await isDismissed('other.example')).toBe(false);
  });
});
