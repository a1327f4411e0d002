// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearDiscoveryCache } from '@/lib/discovery/cache';
import type { DiscoveryReport } from '@/lib/discovery/report';
import { runDiscovery } from '@/lib/discovery/run';
import { DiscoveryView } from '@/lib/pages/sidepanel/DiscoveryView';
import { shownDocuments } from '@/lib/pages/sidepanel/discoveryDocuments';
import { BASE, FakeService, healthyDocuments, sha256, steppingClock } from '../../discovery/fakeService';

beforeEach(() => clearDiscoveryCache());
afterEach(cleanup);

function run(service: FakeService): Promise<DiscoveryReport> {
  return runDiscovery({ baseUrl: `${service.base}/`, fetch: service.fetch, now: steppingClock() });
}

function view(report: DiscoveryReport) {
  return render(<DiscoveryView report={report} running={false} deprecations={[]} onRun={() => undefined} />)
    .container;
}

const HOSTILE =
  '# Pricing <script>window.__pwned=1</script>\n\n| Plan | Monthly price |\n| --- | --- |\n| Pro | $29 |\n\n[click](javascript:alert(1)) <img src=x onerror=alert(1)>\n';

describe('the side panel converts the Markdown the worker stored', () => {
  it('shows the pricing plans, every document and the verified skill bodies as blocks', async () => {
    const report = await run(new FakeService());
    const shown = shownDocuments(report);
    expect(shown.pricing?.map((row) => [row.name, row.monthlyPriceAmount])).toEqual([
      ['Free', 0],
      ['Pro', 29],
    ]);
    expect([...shown.markdown.keys()].sort()).toEqual(Object.keys(report.documents.markdownSources).sort());
    // Relative links resolve against the document's own URL, as when the worker converted them.
    expect(JSON.stringify(shown.markdown.get('/auth.md'))).toContain(`"href":"${BASE}/apikey"`);

    view(report);
    const pricing = screen.getByRole('region', { name: 'Pricing' });
    expect(
      within(pricing)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toContain('Pro$29.0010k/day');
    expect(screen.getByText('Read Authentication')).toBeTruthy();
  });

  it('renders hostile Markdown as inert text: no script, no javascript: link, no raw HTML', async () => {
    const documents = healthyDocuments();
    documents['/pricing.md'] = { body: HOSTILE, contentType: 'text/markdown' };
    documents['/auth.md'] = { body: HOSTILE, contentType: 'text/markdown' };
    const container = view(await run(new FakeService(documents)));
    expect(container.querySelectorAll('script, img, iframe')).toHaveLength(0);
    for (const link of container.querySelectorAll('a'))
      expect(link.getAttribute('href')).toMatch(/^(https?:|mailto:)/);
    expect(container.textContent).toContain('Pro');
  });

  it('marks a fetched pricing document without a plan table invalid, and shows no plans', async () => {
    const documents = healthyDocuments();
    documents['/pricing.md'] = { body: '# Pricing\n\nAsk us.', contentType: 'text/markdown' };
    const report = await run(new FakeService(documents));
    expect(shownDocuments(report).pricingError).toMatch(/No table with a plan name/);
    view(report);
    const step = screen.getByText('Pricing', { selector: 'strong' }).closest('li');
    expect(step?.textContent).toContain('invalid');
    expect(step?.textContent).toMatch(/No table with a plan name/);
    expect(screen.queryByRole('region', { name: 'Pricing' })).toBeNull();
  });

  it('shows a verified skill body converted, and nothing of one that failed its digest', async () => {
    const documents = healthyDocuments();
    const body =
      '---\nname: good\ndescription: The good skill\n---\n# good\n\nSee [the API](../../../openapi.json).\n';
    documents['/.well-known/agent-skills/good/SKILL.md'] = { body, contentType: 'text/markdown' };
    documents['/.well-known/agent-skills/bad/SKILL.md'] = {
      body: '# bad body',
      contentType: 'text/markdown',
    };
    documents['/.well-known/agent-skills/index.json'] = {
      body: JSON.stringify({
        skills: [
          { name: 'good', type: 'skill-md', description: 'd', url: 'good/SKILL.md', digest: sha256(body) },
          { name: 'bad', type: 'skill-md', description: 'd', url: 'bad/SKILL.md', digest: sha256('other') },
        ],
      }),
      contentType: 'application/json',
    };
    const report = await run(new FakeService(documents));
    const shown = shownDocuments(report);
    expect(shown.skillBodies.get('good')?.[0]).toMatchObject({ type: 'heading', depth: 1 });
    expect(JSON.stringify(shown.skillBodies.get('good'))).toContain(`"href":"${BASE}/openapi.json"`);
    expect(shown.skillBodies.has('bad')).toBe(false);
    view(report);
    expect(screen.getByText('Read Good')).toBeTruthy();
    // The id stays, as secondary text.
    expect(screen.getByText('good', { selector: 'code' })).toBeTruthy();
    expect(screen.queryByText('Read bad')).toBeNull();
  });
});
