// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PopupView, type ListView, type PopupViewProps } from '@/lib/pages/popup/PopupView';
import type { Playbook } from '@/lib/api/schemas';
import type { AppState } from '@/lib/messaging/protocol';

afterEach(cleanup);

const NOW = Date.parse('2026-03-01T12:00:00Z');

function playbook(n: number, over: Partial<Playbook> = {}): Playbook {
  return {
    id: `pb_${n}`,
    title: `Playbook ${n}`,
    thesis: 'A thesis.',
    visibility: 'private',
    status: 'draft',
    tickers: ['AAPL', 'MSFT'],
    owner: { id: 'usr', name: 'Demo' },
    created_at: '2026-02-01T00:00:00Z',
    updated_at: '2026-03-01T11:55:00Z',
    etag: '"1"',
    ...over,
  };
}

function appState(key: AppState['key']): AppState {
  return {
    version: '0.1.0',
    settings: { serviceUrl: 'http://127.0.0.1:8787', apiUrl: 'http://127.0.0.1:8787/api/v1', pollMinutes: 5 },
    key,
    hostAccess: { missingOrigins: [] },
  };
}

const list = (over: Partial<ListView> = {}): ListView => ({
  items: [],
  hasMore: false,
  loading: false,
  loadingMore: false,
  ...over,
});

function renderPopup(props: Partial<PopupViewProps> = {}) {
  const handlers = {
    onOpenSidePanel: vi.fn(),
    onOpenSetup: vi.fn(),
    onOpenPlaybook: vi.fn(),
    onScope: vi.fn(),
    onVisibility: vi.fn(),
    onLoadMore: vi.fn(),
    onRetry: vi.fn(),
    onRefreshStatus: vi.fn(),
    onReopenDraft: vi.fn(),
    onDiscardDraft: vi.fn(),
    onRetryDraft: vi.fn(),
  };
  render(
    <PopupView
      state={appState({ set: true, savedAt: Date.UTC(2026, 10, 2, 9, 30) })}
      scope="mine"
      visibility="all"
      list={list()}
      optionsUrl="chrome-extension://x/options.html"
      now={NOW}
      {...handlers}
      {...props}
    />,
  );
  return handlers;
}

describe('PopupView', () => {
  it('keeps the contract names: list, status region, side panel link, disclaimer', () => {
    const handlers = renderPopup();
    expect(screen.getByRole('list', { name: 'Playbooks' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Service status' })).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Open side panel' }));
    expect(handlers.onOpenSidePanel).toHaveBeenCalledOnce();
    expect(screen.getByText('Decision support, not financial advice.')).toBeTruthy();
  });

  it('renders each row with title, visibility, status, tickers and last update, and opens it', () => {
    const handlers = renderPopup({
      list: list({
        items: [
          playbook(1, { visibility: 'unlisted', status: 'active', tickers: ['A', 'B', 'C', 'D', 'E', 'F'] }),
        ],
      }),
    });
    const row = screen.getByRole('listitem');
    expect(row.textContent).toContain('Playbook 1');
    // Written in the locale's own case (no CSS text-transform).
    expect(row.textContent).toContain('Unlisted');
    expect(row.textContent).toContain('Active');
    expect(row.textContent).toContain('+3');
    expect(row.textContent).toContain('Updated 5 minutes ago');
    fireEvent.click(within(row).getByRole('button', { name: 'Playbook 1' }));
    expect(handlers.onOpenPlaybook).toHaveBeenCalledWith('pb_1');
  });

  it('never claims the list is complete while the service has more', () => {
    const handlers = renderPopup({ list: list({ items: [playbook(1), playbook(2)], hasMore: true }) });
    expect(screen.queryByText(/^All \d+ shown$/)).toBeNull();
    expect(screen.getByText('2 shown, more available')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(handlers.onLoadMore).toHaveBeenCalledOnce();
    cleanup();
    renderPopup({ list: list({ items: [playbook(1), playbook(2)], hasMore: false }) });
    expect(screen.getByText('All 2 shown')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('first run: explains the key, links the options and /apikey, offers only the public library', () => {
    renderPopup({ state: appState({ set: false }), scope: 'public' });
    expect(screen.getByRole('link', { name: 'http://127.0.0.1:8787/apikey' }).getAttribute('href')).toBe(
      'http://127.0.0.1:8787/apikey',
    );
    expect(screen.getByRole('link', { name: 'options' }).getAttribute('href')).toBe(
      'chrome-extension://x/options.html',
    );
    expect(screen.queryByRole('button', { name: 'Yours' })).toBeNull();
    expect(screen.queryByLabelText('Visibility')).toBeNull();
    expect(screen.getByRole('region', { name: 'Service status' }).textContent).toContain('Not set');
  });

  it('401: says the key was refused in the user’s words, where to check it, the code only under Details', () => {
    renderPopup({
      overview: {
        deprecations: [],
        accountError: {
          name: 'ApiError',
          kind: 'unauthorized',
          operationId: 'getAccount',
          message: 'no',
          status: 401,
        },
      },
      list: list({
        problem: {
          kind: 'unauthorized',
          message: 'listPlaybooks needs a valid API key.',
          link: 'https://svc.example/apikey',
          status: 401,
        },
      }),
    });
    const alert = screen.getByRole('alert');
    const body = alert.querySelector(':scope > p')!.textContent;
    expect(body).toBe(
      'The service refused this API key. Check it in the options, or create a new one at https://svc.example/apikey.',
    );
    expect(within(alert).getByRole('link', { name: 'options' }).getAttribute('href')).toBe(
      'chrome-extension://x/options.html',
    );
    expect(within(alert).getByRole('link', { name: 'https://svc.example/apikey' })).toBeTruthy();
    // The status code is a detail, one click away; said once, not again in the status line.
    const details = alert.querySelector('details')!;
    expect(details.textContent).toContain('The service answered HTTP 401.');
    expect(body).not.toMatch(/401/);
    expect(
      screen.getByRole('region', { name: 'Service status' }).querySelectorAll(':scope > p'),
    ).toHaveLength(0);
    expect(within(alert).queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('403: explains with the service’s code and words', () => {
    renderPopup({
      list: list({
        problem: {
          kind: 'forbidden',
          code: 'permission_denied',
          message: 'listPlaybooks is not allowed: key is read-limited.',
        },
      }),
    });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('permission_denied');
    expect(alert.textContent).toContain('key is read-limited');
  });

  it('errors without a cache offer Retry', () => {
    const handlers = renderPopup({
      list: list({ problem: { kind: 'offline', message: 'The service could not be reached.' } }),
    });
    fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Retry' }));
    expect(handlers.onRetry).toHaveBeenCalledOnce();
  });

  it('a saved copy shown because the network failed is dated on one line, with one retry for all', () => {
    const handlers = renderPopup({
      list: list({
        items: [playbook(1)],
        source: 'cache',
        fetchedAt: NOW - 3 * 60_000,
        stale: { kind: 'failed', reason: 'The service could not be reached.' },
      }),
    });
    // The failure in words on the one line (no badge to wrap it in German); the reason in its tooltip.
    const line = screen.getByText(/Saved 3 minutes ago .* not updated$/);
    expect(line.getAttribute('title')).toBe('The service could not be reached.');
    expect(screen.queryByText('Cached')).toBeNull();
    // One control retries the list and the status: the status line's, not a second one beside the date.
    expect(screen.queryByRole('button', { name: 'Refresh status' })).toBeNull();
    const retry = screen.getAllByRole('button', { name: 'Retry' });
    expect(retry).toHaveLength(1);
    fireEvent.click(retry[0]);
    expect(handlers.onRetry).toHaveBeenCalledOnce();
    expect(handlers.onRefreshStatus).not.toHaveBeenCalled();
  });

  it('a cache shown while refreshing is marked but not called a failure', () => {
    renderPopup({
      list: list({
        items: [playbook(1)],
        source: 'cache',
        fetchedAt: NOW - 60_000,
        stale: { kind: 'refreshing' },
      }),
    });
    expect(screen.getByText('Cached')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('a refused document: says nothing was sent and what to do, never "No playbooks yet"', () => {
    const handlers = renderPopup({
      list: list({
        problem: { kind: 'document-refused', message: 'pausePlaybook is declared as POST /p/{id}:halt…' },
      }),
    });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain("The service's description could not be trusted");
    expect(alert.textContent).toContain('Nothing was sent');
    expect(within(alert).getByRole('link', { name: 'status page' }).getAttribute('href')).toBe(
      'http://127.0.0.1:8787/status',
    );
    // The contradiction itself is a detail, one click away.
    expect(within(alert).getByText('Details').tagName).toBe('SUMMARY');
    expect(screen.queryByText(/No playbooks yet/)).toBeNull();
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(handlers.onRetry).toHaveBeenCalledOnce();
  });

  it('a refused document with a saved copy: the cached rows stay, marked as cached', () => {
    renderPopup({
      list: list({
        items: [playbook(1)],
        source: 'cache',
        fetchedAt: NOW - 3 * 60_000,
        stale: { kind: 'failed', reason: 'refused', code: 'api.document-refused' },
        problem: { kind: 'document-refused', message: 'refused' },
      }),
    });
    expect(screen.getByRole('alert').textContent).toContain('could not be trusted');
    expect(screen.getByText(/not updated$/)).toBeTruthy();
    expect(screen.getByRole('listitem').textContent).toContain('Playbook 1');
  });

  it('an empty list beside any failed read says nothing of being empty', () => {
    renderPopup({
      list: list({ problem: { kind: 'offline', message: 'The service could not be reached.' } }),
    });
    expect(screen.queryByText(/No playbooks yet/)).toBeNull();
  });

  it('the visibility filter and the scope buttons report the choice', () => {
    const handlers = renderPopup();
    fireEvent.change(screen.getByLabelText('Visibility'), { target: { value: 'public' } });
    expect(handlers.onVisibility).toHaveBeenCalledWith('public');
    fireEvent.click(screen.getByRole('button', { name: 'Public library' }));
    expect(handlers.onScope).toHaveBeenCalledWith('public');
    expect(screen.getByRole('button', { name: 'Yours' }).getAttribute('aria-pressed')).toBe('true');
  });
});
