import { escapeHtml } from './html';

/**
 * A finance-like quote page on the sandbox's own origin (`/demo/quote/<symbol>`), so `npm start`
 * shows "Turn this into a playbook" with no outside site. The content script matches `/demo/*`.
 */
const COMPANIES: Record<string, { name: string; headline: string; lead: string }> = {
  AAPL: {
    name: 'Apple Inc.',
    headline: 'Services margin keeps rising while hardware units stay flat',
    lead: 'Services revenue reached a record again this quarter. The open question is whether a premium multiple holds if iPhone units stall and App Store rules loosen.',
  },
  NVDA: {
    name: 'NVIDIA Corporation',
    headline: 'Data-centre demand outruns supply for another quarter',
    lead: 'Accelerator backlogs stretch into next year. Watch gross margin as new product ramps and customer concentration grow.',
  },
  NEE: {
    name: 'NextEra Energy, Inc.',
    headline: 'Grid build-out and data-centre load lift the utility capex cycle',
    lead: 'Transmission backlogs and new load from data centres keep rate-base growth visible; rate-case outcomes are the catalyst to watch.',
  },
};

const SYMBOL = /^[A-Z0-9^][A-Z0-9.=-]{0,11}$/;

export function demoQuotePage(rawSymbol: string): { status: 200 | 404; html: string } {
  const symbol = rawSymbol.toUpperCase();
  if (!SYMBOL.test(symbol))
    return { status: 404, html: '<!doctype html><title>Not found</title><p>Unknown symbol.</p>' };
  const company = COMPANIES[symbol] ?? {
    name: `${symbol} (demo)`,
    headline: `${symbol}: what would have to be true for the thesis to work`,
    lead: 'This is a sandbox demo page. Select a sentence and use the right-click menu, or press the button in the corner.',
  };
  const name = escapeHtml(company.name);
  const ticker = escapeHtml(symbol);
  const jsonLd = JSON.stringify({
    '@context': 'https://schema.org',
    '@type': 'Corporation',
    name: company.name,
    tickerSymbol: symbol,
  }).replace(/</g, '\\u003c');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${name} (${ticker}) quote · Sandbox Markets</title>
<meta name="description" content="${escapeHtml(company.lead)}">
<script type="application/ld+json">${jsonLd}</script>
<style>body{font:16px/1.55 system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem}.quote{font-size:2rem;font-weight:700}</style>
</head><body><header><p>Sandbox Markets · demo quote page (no real market data)</p></header>
<main><h1>${name} (${ticker})</h1><p class="quote">${ticker}</p>
<h2>${escapeHtml(company.headline)}</h2><p>${escapeHtml(company.lead)}</p></main></body></html>`;
  return { status: 200, html };
}
