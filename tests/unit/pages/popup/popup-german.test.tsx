// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PopupView } from '@/lib/pages/popup/PopupView';
import { OptionsForm } from '@/lib/pages/options/OptionsForm';
import type { Playbook } from '@/lib/api/schemas';
import type { AppState } from '@/lib/messaging/protocol';
import type { PopupDraft } from '@/lib/store/snapshot';
import { useLocale } from '../../../fixtures/i18n';

afterEach(cleanup);
beforeEach(() => useLocale('de'));

const NOW = Date.parse('2026-03-01T12:00:00Z');

const state: AppState = {
  version: '0.1.0',
  settings: { serviceUrl: 'https://svc.example', apiUrl: 'https://api.svc.example/v1', pollMinutes: 5 },
  key: { set: true, savedAt: Date.UTC(2026, 10, 2, 9, 30) },
  hostAccess: { missingOrigins: [] },
};

/** A title as the service sends it: English, with a cashtag and braces, shown exactly so. */
const SERVICE_TITLE = 'AI capex boom: long $NVDA {rates} $1';

function playbook(n: number, over: Partial<Playbook> = {}): Playbook {
  return {
    id: `pb_${n}`,
    title: `Playbook ${n}`,
    thesis: 'A thesis.',
    visibility: 'private',
    status: 'active',
    tickers: ['AAPL'],
    owner: { id: 'usr', name: 'Demo' },
    created_at: '2026-02-01T00:00:00Z',
    updated_at: '2026-03-01T11:55:00Z',
    etag: '"1"',
    ...over,
  };
}

const noop = () => undefined;

describe('the popup in German', () => {
  it('speaks German, formats numbers and times the German way, and shows service text as sent', () => {
    const items = [
      playbook(1, { title: SERVICE_TITLE }),
      ...Array.from({ length: 1499 }, (_, i) => playbook(i + 2)),
    ];
    const outbox: PopupDraft[] = [
      {
        id: 'd1',
        operationId: 'createPlaybook',
        label: 'Neues Playbook',
        status: 'pending',
        updatedAt: NOW - 60_000,
      },
      {
        id: 'd2',
        operationId: 'createPlaybook',
        label: 'Noch eins',
        status: 'failed',
        updatedAt: NOW - 60_000,
      },
    ] as unknown as PopupDraft[];
    render(
      <PopupView
        state={state}
        overview={{
          status: { status: 'operational', components: [], updated_at: '2026-03-01T11:59:00Z' },
          deprecations: [
            {
              operationId: 'listPlaybooksLegacy',
              deprecated: true,
              sunsetAt: Date.parse('2026-01-01T00:00:00Z'),
              lastSeenAt: NOW,
            },
          ],
          rateLimit: { origin: 'https://api.svc.example', remaining: 1234, quota: 5000 },
        }}
        scope="mine"
        visibility="all"
        list={{
          items,
          hasMore: true,
          loading: false,
          loadingMore: false,
          source: 'network',
          fetchedAt: NOW - 5 * 60_000,
        }}
        rowLimit={3}
        outbox={outbox}
        optionsUrl="chrome-extension://x/options.html"
        now={NOW}
        onOpenSidePanel={noop}
        onOpenSetup={noop}
        onOpenPlaybook={noop}
        onScope={noop}
        onVisibility={noop}
        onLoadMore={noop}
        onRetry={noop}
        onRefreshStatus={noop}
        onReopenDraft={noop}
        onDiscardDraft={noop}
        onRetryDraft={noop}
      />,
    );
    // The CONTRACT names, in German.
    const list = screen.getByRole('list', { name: 'Playbooks' });
    const status = screen.getByRole('region', { name: 'Dienststatus' });
    expect(screen.getByRole('link', { name: 'Seitenleiste öffnen' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Mehr laden' })).toBeTruthy();
    expect(screen.getByText('Entscheidungshilfe, keine Finanzberatung.')).toBeTruthy();
    // German numbers: a thousands dot, in a plural sentence.
    expect(screen.getByText('1.500 angezeigt, weitere verfügbar')).toBeTruthy();
    expect(status.textContent).toContain('1.234 von 5.000 Anfragen übrig');
    expect(status.textContent).toContain('Betriebsbereit');
    // A German date and a German relative time.
    expect(status.textContent).toContain('listPlaybooksLegacy ist veraltet; seit 01.01.2026 abgeschaltet.');
    expect(screen.getByRole('status').textContent).toBe('Aktualisiert vor 5 Minuten');
    // The service's title as sent, inside German chrome.
    const first = within(list).getAllByRole('listitem')[0];
    expect(within(first).getByRole('button', { name: SERVICE_TITLE }).textContent).toBe(SERVICE_TITLE);
    expect(first.textContent).toContain('Privat');
    expect(first.textContent).toContain('Aktiv');
    // Plurals: two drafts wait.
    expect(screen.getByRole('heading', { name: '2 Entwürfe warten' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Neues Playbook prüfen' })).toBeTruthy();
  });
});

describe('the popup’s dates read as German sentences', () => {
  it('a saved copy: "Gerade eben gespeichert (hh:mm)"; a row without a date says none', () => {
    render(
      <PopupView
        state={state}
        scope="mine"
        visibility="all"
        list={{
          items: [playbook(1), playbook(2, { updated_at: 'not a date' })],
          hasMore: false,
          loading: false,
          loadingMore: false,
          source: 'cache',
          fetchedAt: NOW - 10_000,
          stale: { kind: 'refreshing' },
        }}
        optionsUrl="chrome-extension://x/options.html"
        now={NOW}
        onOpenSidePanel={noop}
        onOpenSetup={noop}
        onOpenPlaybook={noop}
        onScope={noop}
        onVisibility={noop}
        onLoadMore={noop}
        onRetry={noop}
        onRefreshStatus={noop}
        onReopenDraft={noop}
        onDiscardDraft={noop}
        onRetryDraft={noop}
      />,
    );
    const [dated, undated] = within(screen.getByRole('list', { name: 'Playbooks' })).getAllByRole('listitem');
    expect(dated.textContent).toContain('Aktualisiert vor 5 Minuten');
    expect(undated.textContent).not.toMatch(/Aktualisiert|unbekannt/);
    expect(undated.querySelector('time')).toBeNull();
    expect(screen.getByRole('status').textContent).toMatch(
      /^Im Cache Gerade eben gespeichert \(\d{2}:\d{2}\) · Wird aktualisiert…$/,
    );
  });
});

describe('the options page in German', () => {
  it('labels, hints and the disclaimer are German; the CONTRACT names are translated', () => {
    const sites = { builtIn: ['Yahoo Finance', 'Reuters'], extra: [], onAdd: vi.fn(), onRemove: vi.fn() };
    render(
      <OptionsForm
        state={state}
        sites={sites}
        onSave={vi.fn()}
        onRemoveKey={vi.fn()}
        onGrantAccess={vi.fn()}
        onTestConnection={vi.fn()}
        testResult={{
          discovery: {
            fetchedAt: '2026-03-01T11:58:00Z',
            documentsOk: 1,
            documentsFailed: 0,
            skillsVerified: 1200,
            skillsFailed: 0,
            stale: false,
          },
          status: { status: 'degraded', components: [], updated_at: '2026-03-01T11:59:00Z' },
          account: { id: 'u', name: 'Demo Investor', email: 'demo@example.com', plan: 'pro' } as never,
          deprecations: [],
        }}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Einstellungen von Playbook Companion' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Dienst-URL' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'API-URL' })).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('API-Schlüssel').type).toBe('password');
    expect(screen.getByRole('button', { name: 'Speichern' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'API-Schlüssel erstellen' })).toBeTruthy();
    expect(
      screen.getByText(
        /^Ein am 02\.11\.2026, \d{2}:\d{2} gespeicherter Schlüssel ist hinterlegt\. Lassen Sie das Feld leer, um ihn zu behalten\.$/,
      ),
    ).toBeTruthy();
    expect(screen.getByText('Entscheidungshilfe, keine Finanzberatung.')).toBeTruthy();
    const result = screen.getByRole('status', { name: 'Ergebnis des Verbindungstests' });
    expect(result.textContent).toContain('1 Dokument abgerufen, 0 fehlgeschlagen; 1.200 Skills geprüft');
    expect(result.textContent).toContain('Eingeschränkt');
    expect(result.textContent).toContain('Demo Investor (demo@example.com) · Tarif Pro');
  });
});
