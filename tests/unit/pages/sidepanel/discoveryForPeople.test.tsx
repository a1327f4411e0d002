// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearDiscoveryCache } from '@/lib/discovery/cache';
import { runDiscovery } from '@/lib/discovery/run';
import { DiscoveryView } from '@/lib/pages/sidepanel/DiscoveryView';
import { formattedLimits, formattedPrice } from '@/lib/pages/sidepanel/discoveryPricing';
import { useLocale } from '../../../fixtures/i18n';
import { FakeService, healthyDocuments, steppingClock } from '../../discovery/fakeService';

/**
 * The Discovery tab reads as what the service offers, in the user's language: prices in the
 * locale's currency format, rate limits in its words, tools by a name for people with the raw name
 * beside and "read-only" as a badge, badges capitalised. What the service wrote otherwise stays as sent.
 */

afterEach(cleanup);
beforeEach(() => clearDiscoveryCache());

const usd = (locale: string, amount: number) =>
  new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(amount);

describe('the pricing formatter', () => {
  it('writes a price in the locale’s currency format, in German and in Arabic', () => {
    useLocale('de');
    expect(formattedPrice('$29')).toBe(usd('de', 29));
    expect(usd('de', 29)).toMatch(/^29,00\s\$$/);
    expect(formattedPrice('USD 1,200 / month')).toBe(usd('de', 1200));
    expect(formattedPrice('9 €')).toBe(
      new Intl.NumberFormat('de', { style: 'currency', currency: 'EUR' }).format(9),
    );
    useLocale('ar');
    expect(formattedPrice('$29')).toBe(usd('ar', 29));
    expect(formattedPrice('$29')).not.toContain('$29');
  });

  it('keeps a price it cannot read as sent (null)', () => {
    useLocale('de');
    expect(formattedPrice('Free')).toBeNull();
    expect(formattedPrice('29')).toBeNull();
    expect(formattedPrice('Contact us')).toBeNull();
  });

  it('writes a rate limit in the user’s words, in German and in Arabic', () => {
    useLocale('de');
    expect(formattedLimits('60 requests / minute')).toBe('60 Anfragen pro Minute');
    expect(formattedLimits('10,000 requests/day')).toBe('10.000 Anfragen pro Tag');
    expect(formattedLimits('1 request per second')).toBe('1 Anfrage pro Sekunde');
    expect(formattedLimits('Unlimited seats')).toBeNull();
    useLocale('ar');
    expect(formattedLimits('60 requests / minute')).toBe(
      `${new Intl.NumberFormat('ar').format(60)} طلبًا في الدقيقة`,
    );
    expect(formattedLimits('600 requests / minute')).toBe(
      `${new Intl.NumberFormat('ar').format(600)} طلب في الدقيقة`,
    );
  });
});

async function germanReport() {
  useLocale('de');
  const documents = healthyDocuments();
  documents['/pricing.md'] = {
    body: '# Pricing\n\n| Plan | Monthly price | Limits |\n|---|---|---|\n| Pro | $29 | 120 requests / minute |\n| Team | Ask us | Fair use |\n',
    contentType: 'text/markdown',
  };
  documents['/.well-known/mcp/server-card.json'] = {
    body: JSON.stringify({
      serverInfo: { name: 'investing-agent', version: '1.0.0' },
      description: 'Public, read-only tools.',
      transport: { type: 'streamable-http', endpoint: '/mcp' },
      tools: [
        {
          name: 'get_product_overview',
          description: 'What the service does.',
          annotations: { title: 'Product overview', readOnlyHint: true },
        },
        { name: 'list_categories', description: 'The categories.' },
      ],
    }),
    contentType: 'application/json',
  };
  const service = new FakeService(documents);
  return runDiscovery({ baseUrl: `${service.base}/`, fetch: service.fetch, now: steppingClock() });
}

describe('the Discovery tab in German', () => {
  it('shows prices and limits in German, other cells as the service sent them', async () => {
    const report = await germanReport();
    render(<DiscoveryView report={report} running={false} deprecations={[]} onRun={() => undefined} />);
    const rows = [...screen.getByRole('region', { name: 'Preise' }).querySelectorAll('tbody tr')];
    expect(rows.map((row) => [...row.children].map((cell) => cell.textContent))).toEqual([
      ['Pro', usd('de', 29), '120 Anfragen pro Minute'],
      ['Team', 'Ask us', 'Fair use'],
    ]);
    expect(rows[1].children[1].getAttribute('dir')).toBe('auto');
  });

  it('names each tool for people, its raw name beside, read-only as a badge', async () => {
    const report = await germanReport();
    render(<DiscoveryView report={report} running={false} deprecations={[]} onRun={() => undefined} />);
    const terms = [...screen.getByRole('region', { name: 'Werkzeuge' }).querySelectorAll('dt')];
    const [overview, categories] = terms;
    expect(overview.querySelector('strong')?.textContent).toBe('Product overview');
    expect(overview.querySelector('code')?.textContent).toBe('get_product_overview');
    expect(overview.querySelector('.badge')?.textContent).toBe('Nur lesend');
    expect(overview.textContent).not.toContain('(');
    expect(categories.querySelector('strong')?.textContent).toBe('List categories');
    expect(categories.querySelector('.badge')).toBeNull();
  });

  it('capitalises the skill badge', async () => {
    const report = await germanReport();
    render(<DiscoveryView report={report} running={false} deprecations={[]} onRun={() => undefined} />);
    const skills = screen.getByRole('region', { name: 'Agent-Skills' });
    expect(skills.querySelector('.badge')?.textContent).toBe('Verifiziert');
  });
});
