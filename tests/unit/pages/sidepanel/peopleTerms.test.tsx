// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearDiscoveryCache } from '@/lib/discovery/cache';
import { runDiscovery } from '@/lib/discovery/run';
import type { RecentEvent } from '@/lib/events/feed';
import { MessageError } from '@/lib/messaging/client';
import { errorParts } from '@/lib/pages/errorText';
import { DiscoveryView } from '@/lib/pages/sidepanel/DiscoveryView';
import { EventList } from '@/lib/pages/sidepanel/EventList';
import { PlaybookDetail } from '@/lib/pages/sidepanel/PlaybookDetail';
import { SidePanelView } from '@/lib/pages/sidepanel/SidePanelView';
import { chromeMessages, useLocale } from '../../../fixtures/i18n';
import { FakeService, healthyDocuments, steppingClock } from '../../discovery/fakeService';
import { playbook } from '../popup/fixtures';

/**
 * The side panel in the user's terms: events say what happened with figures in the
 * user's language and the playbook's title, never its id; a failure says what happened and what
 * to do, the operation and its retries one click away; Discovery opens on what the service
 * offers; a playbook seen before opens offline from the cache, its writes disabled with a reason.
 */

afterEach(cleanup);
beforeEach(() => useLocale('en'));

const completion: RecentEvent = {
  id: 'ev_1',
  type: 'backtest.completed',
  playbook_id: 'pb_d07MfnkYsei7',
  at: '2026-01-07T10:00:00Z',
  data: {
    backtest_id: 'bt_x9Q',
    total_return: -0.1917,
    benchmark_return: 0.087,
    max_drawdown: -0.25,
    sharpe: 0.4,
  },
  via: 'stream',
  receivedAt: '2026-01-07T10:00:01Z',
};

function events(titles?: Map<string, string>) {
  render(
    <EventList
      events={[completion]}
      stream="open"
      polling={false}
      onPollNow={() => undefined}
      onOpenPlaybook={() => undefined}
      titles={titles}
    />,
  );
  const row = screen.getByRole('listitem');
  const details = row.querySelector('details');
  const main = [...row.childNodes]
    .filter((node) => node !== details)
    .map((node) => node.textContent)
    .join(' ');
  return { row, main, details: details?.textContent ?? '' };
}

describe('the Events tab in the user’s terms', () => {
  it('shows the result as percentages and names the playbook by title; ids only under Details', () => {
    const { row, main, details } = events(new Map([['pb_d07MfnkYsei7', 'Grid modernization']]));
    expect(main).toContain('Return \u221219.2% vs benchmark +8.7%, max drawdown \u221225.0%');
    expect(main).not.toMatch(/total return:|bt_|pb_|via live stream|-0\.1917/);
    expect(within(row).getByRole('link').textContent).toBe('Open “Grid modernization”');
    expect(details).toContain('bt_x9Q');
    expect(details).toContain('pb_d07MfnkYsei7');
  });

  it('without a known title, a generic phrase, never the id; in German, German figures', () => {
    useLocale('de');
    const { row, main } = events();
    expect(within(row).getByRole('link').textContent).toBe('Playbook öffnen');
    expect(main).toContain('\u221219,2\u00a0%');
    expect(main).not.toContain('pb_');
  });
});

describe('a failure in the user’s terms', () => {
  it('says what happened and what to do; the operation and the retry budget go to details', () => {
    const failure = new MessageError({
      code: 'api.network',
      message: 'getPlaybook failed after 1 attempt: the service could not be reached (no attempts left).',
      details: { operationId: 'getPlaybook', kind: 'network' },
    });
    expect(errorParts(failure)).toEqual({
      message: 'The service could not be reached. Check your connection, then try again.',
      details: failure.message,
    });
    // The worker's own failures are written for the user already: shown as they are.
    const own = new MessageError({ code: 'settings.not-configured', message: 'Set up the service first.' });
    expect(errorParts(own)).toEqual({ message: 'Set up the service first.' });
  });
});

describe('the Discovery tab for people', () => {
  beforeEach(() => clearDiscoveryCache());

  it('opens on the offer, the prices, the skills and the tools; the fetch log is behind Details', async () => {
    const documents = healthyDocuments();
    const long = `Searches public playbooks by words in their title. ${'More text. '.repeat(40)}`;
    documents['/.well-known/mcp/server-card.json'] = {
      body: JSON.stringify({
        serverInfo: { name: 'investing-agent', version: '1.0.0' },
        description: 'Public, read-only tools.',
        transport: { type: 'streamable-http', endpoint: '/mcp' },
        tools: [
          { name: 'search_playbooks', description: long, annotations: { readOnlyHint: true } },
          { name: 'get_product_overview', description: 'What the service does.\nSecond line.' },
        ],
      }),
      contentType: 'application/json',
    };
    const service = new FakeService(documents);
    const report = await runDiscovery({
      baseUrl: `${service.base}/`,
      fetch: service.fetch,
      now: steppingClock(),
    });
    const { container } = render(
      <DiscoveryView report={report} running={false} deprecations={[]} onRun={() => undefined} />,
    );
    const outside = (element: Element) => element.closest('details') === null;
    expect(outside(screen.getByRole('region', { name: 'Pricing' }).querySelector('table')!)).toBe(true);
    expect(outside(screen.getByRole('region', { name: 'Skills' }))).toBe(true);
    const timeline = screen.getByRole('list', { name: 'Discovery run' });
    const details = timeline.closest('details');
    expect(details?.open).toBe(false);
    expect(details?.querySelector('summary')?.textContent).toBe('Details');
    // Nothing outside Details shows a fetch's address, status or timing.
    const shown = [...container.querySelectorAll('.discovery > :not(details)')]
      .map((el) => el.textContent)
      .join(' ');
    expect(shown).not.toMatch(/\/llms\.txt|\b\d{1,6} ms\b|HTTP \d{3}/);
    const offer = screen.getByRole('region', { name: 'What the service offers' });
    expect(offer.textContent).toContain(report.documents.agentCard?.description ?? '—');
    expect(container.querySelector('.discovery > section')).toBe(offer);
    const tools = screen.getByRole('region', { name: 'Tools' });
    expect(outside(tools)).toBe(true);
    expect(report.documents.mcpCard?.tools?.length).toBeGreaterThan(0);
    expect([...tools.querySelectorAll('dd')].map((dd) => dd.textContent)).toEqual([
      'Searches public playbooks by words in their title.',
      'What the service does.',
    ]);
    expect(tools.querySelector('dt')?.textContent).toContain('search_playbooks');
  });

  it('names the tab in every language, not in English', () => {
    const english = chromeMessages('en').sidepanel_tabs_discovery.message;
    for (const file of ['de', 'es', 'fr', 'ja', 'pt_BR', 'zh_CN', 'ar'])
      expect(chromeMessages(file).sidepanel_tabs_discovery.message, file).not.toBe(english);
    useLocale('de');
    render(<SidePanelView panels={{ playbooks: null, discovery: null, events: null }} />);
    expect(screen.getAllByRole('tab')[1].textContent).toBe('Dienstangebot');
  });
});

/** "Grid modernization" in the detail, with every handler a no-op; `props` adds the state under test. */
function renderDetail(props: Partial<Parameters<typeof PlaybookDetail>[0]>) {
  const none = () => undefined;
  return render(
    <PlaybookDetail
      playbook={playbook('pb_1', 'Grid modernization')}
      loading={false}
      plans={['Pro']}
      onBack={none}
      onReload={none}
      onEdit={none}
      onBacktest={none}
      onActivate={none}
      onPause={none}
      onLinkBrokerage={none}
      onUpgrade={none}
      {...props}
    />,
  );
}

describe('a playbook seen before, offline', () => {
  it('shows the cached copy marked with when it was saved, its writes disabled with the reason', () => {
    const savedAt = Date.now() - 5 * 60_000;
    renderDetail({ cached: { savedAt, reason: 'getPlaybook failed after 1 attempt.' } });
    expect(screen.getByText('Cached · saved 5 minutes ago')).toBeTruthy();
    const reason = screen.getByText('Service out of reach: you can make changes once it answers again.');
    for (const name of ['Save changes', 'Run backtest', 'Activate live automation', 'Upgrade plan']) {
      const button = screen.getByRole<HTMLButtonElement>('button', { name });
      expect(button.disabled, name).toBe(true);
      expect(button.getAttribute('aria-describedby'), name).toBe(reason.id);
    }
    // The technical reason is there for whoever looks, not in the main text.
    const why = screen.getByText('getPlaybook failed after 1 attempt.');
    expect(why.closest('details')).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Back to the list' }));
  });

  it('a service that answered in trouble (503) is not called "Offline"', () => {
    renderDetail({ cached: { savedAt: Date.now(), reason: 'getPlaybook: 503', code: 'api.server' } });
    const reason = screen.getByText('Service unavailable: you can make changes once it answers again.');
    expect(screen.queryByText(/Offline/)).toBeNull();
    const save = screen.getByRole<HTMLButtonElement>('button', { name: 'Save changes' });
    expect(save.getAttribute('aria-describedby')).toBe(reason.id);
    cleanup();
    renderDetail({ cached: { savedAt: Date.now(), code: 'api.network' } });
    expect(
      screen.getByText('Service out of reach: you can make changes once it answers again.'),
    ).toBeTruthy();
  });
});

describe('what became of an action', () => {
  it.each([
    ['runBacktest', 'Run backtest', 'Activate live automation'],
    ['updatePlaybook', 'Save changes', 'Run backtest'],
    ['activatePlaybook', 'Activate live automation', 'Upgrade plan'],
  ] as const)('is said for %s right after the button that asked for it', (operationId, asked, next) => {
    renderDetail({ action: { operationId, status: 'cancelled' } });
    const said = screen.getByRole('status');
    const follows = (a: Node, b: Node) =>
      Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
    // After the button pressed (seen where the user looks), before the next form's.
    expect(follows(screen.getByRole('button', { name: asked }), said)).toBe(true);
    expect(follows(said, screen.getByRole('button', { name: next }))).toBe(true);
  });
});
