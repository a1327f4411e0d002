// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Playbook } from '@/lib/api/schemas';
import type { AppState, PlaybookPage } from '@/lib/messaging/protocol';
import { PopupPage } from '@/lib/pages/popup/PopupPage';
import { serveMessages, workerFailure, type StubHandlers } from '../support';

afterEach(cleanup);

const state: AppState = {
  version: '0.1.0',
  settings: { serviceUrl: 'http://127.0.0.1:8787', apiUrl: 'http://127.0.0.1:8787/api/v1', pollMinutes: 5 },
  key: { set: true, last4: 'abcd' },
  hostAccess: { missingOrigins: [] },
};

function playbook(id: string, title: string): Playbook {
  return {
    id,
    title,
    thesis: 't',
    visibility: 'private',
    status: 'draft',
    tickers: [],
    owner: { id: 'u', name: 'U' },
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    etag: '"1"',
  };
}

function page(items: Playbook[], over: Partial<PlaybookPage> = {}): PlaybookPage {
  return { items, nextCursor: null, hasMore: false, source: 'network', fetchedAt: Date.now(), ...over };
}

const base: StubHandlers = {
  getState: () => state,
  getOverview: () => ({ deprecations: [] }),
  listOutbox: () => [],
  getPageMatches: () => ({ tickers: [], matches: [] }),
};

describe('PopupPage', () => {
  beforeEach(() => {
    vi.spyOn(fakeBrowser.windows, 'getCurrent').mockResolvedValue({ id: 1 } as never);
  });

  it('paints the cached first page, then replaces it with the network answer', async () => {
    let release: () => void = () => undefined;
    const network = new Promise<void>((resolve) => (release = resolve));
    const worker = serveMessages({
      ...base,
      listPlaybooks: async (request) => {
        if (request.preferCache)
          return page([playbook('a', 'Cached title')], { source: 'cache', fetchedAt: Date.now() - 600_000 });
        await network;
        return page([playbook('a', 'Fresh title'), playbook('b', 'New one')]);
      },
    });
    render(<PopupPage />);
    await screen.findByRole('button', { name: 'Cached title' });
    expect(screen.getByText('Cached')).toBeTruthy();
    release();
    await screen.findByRole('button', { name: 'Fresh title' });
    expect(screen.getByRole('button', { name: 'New one' })).toBeTruthy();
    expect(screen.queryByText('Cached')).toBeNull();
    const lists = worker.received.filter((m) => m.type === 'listPlaybooks').map((m) => m.payload);
    expect(lists).toEqual([{ preferCache: true }, {}]);
  });

  it('follows the cursor on Load more and appends without duplicates', async () => {
    const worker = serveMessages({
      ...base,
      listPlaybooks: (request) =>
        request.cursor === 'c1'
          ? page([playbook('b', 'Second'), playbook('c', 'Third')])
          : page([playbook('a', 'First'), playbook('b', 'Second')], { hasMore: true, nextCursor: 'c1' }),
    });
    render(<PopupPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    await screen.findByRole('button', { name: 'Third' });
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    expect(screen.getByText('All 3 shown')).toBeTruthy();
    expect(worker.received.filter((m) => m.type === 'listPlaybooks').at(-1)?.payload).toEqual({
      cursor: 'c1',
    });
  });

  it('without a key, reads the public library and never the private list twice', async () => {
    const worker = serveMessages({
      ...base,
      getState: () => ({ ...state, key: { set: false } }),
      listPlaybooks: () => {
        throw workerFailure({
          code: 'api.unauthorized',
          message: 'needs a key',
          details: { kind: 'unauthorized' },
        });
      },
      listPublicPlaybooks: () => page([playbook('p', 'Public idea')]),
    });
    render(<PopupPage />);
    await screen.findByRole('button', { name: 'Public idea' });
    expect(screen.getByText('Connect your account')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(worker.received.filter((m) => m.type === 'listPlaybooks').length).toBeLessThanOrEqual(1);
  });

  it('a 401 on refresh shows the sign-in banner with the service’s link', async () => {
    serveMessages({
      ...base,
      listPlaybooks: () => {
        throw workerFailure({
          code: 'api.unauthorized',
          message: 'listPlaybooks needs a valid API key.',
          details: { kind: 'unauthorized', status: 401, link: 'http://127.0.0.1:8787/apikey' },
        });
      },
    });
    render(<PopupPage />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your API key was not accepted');
    expect(screen.getByRole('link', { name: 'http://127.0.0.1:8787/apikey' })).toBeTruthy();
  });

  it('Retry after a failure asks again', async () => {
    let calls = 0;
    serveMessages({
      ...base,
      listPlaybooks: () => {
        calls++;
        if (calls === 1)
          throw workerFailure({ code: 'api.network', message: 'The service could not be reached.' });
        return page([playbook('a', 'Back again')]);
      },
    });
    render(<PopupPage />);
    const alert = await screen.findByRole('alert');
    fireEvent.click(alert.querySelector('button') as HTMLButtonElement);
    await screen.findByRole('button', { name: 'Back again' });
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });
});

describe('PopupPage: On this page', () => {
  beforeEach(() => {
    vi.spyOn(fakeBrowser.windows, 'getCurrent').mockResolvedValue({ id: 1 } as never);
  });

  it('asks once for the active tab and opens a match in the side panel', async () => {
    vi.spyOn(fakeBrowser.tabs, 'query').mockResolvedValue([{ id: 7 }] as never);
    const worker = serveMessages({
      ...base,
      listPlaybooks: () => page([playbook('a', 'Listed')]),
      getPageMatches: () => ({
        tickers: ['NVDA'],
        matches: [{ id: 'pb_nvda', title: 'NVDA data-centre thesis', tickers: ['NVDA'] }],
      }),
    });
    render(<PopupPage />);
    const section = await screen.findByRole('region', { name: 'On this page' });
    const match = await waitFor(() => {
      const button = section.querySelector('button');
      if (!button) throw new Error('no match yet');
      return button;
    });
    expect(match.textContent).toBe('NVDA data-centre thesis');
    fireEvent.click(match);
    await waitFor(async () =>
      expect(await fakeBrowser.storage.session.get('sidePanelFocus')).toMatchObject({
        sidePanelFocus: { playbookId: 'pb_nvda' },
      }),
    );
    const asked = worker.received.filter((m) => m.type === 'getPageMatches').map((m) => m.payload);
    expect(asked).toEqual([{ tabId: 7 }]);
  });

  it('draws nothing on a page without tickers', async () => {
    vi.spyOn(fakeBrowser.tabs, 'query').mockResolvedValue([{ id: 8 }] as never);
    const worker = serveMessages({ ...base, listPlaybooks: () => page([playbook('a', 'Listed')]) });
    render(<PopupPage />);
    await screen.findByRole('button', { name: 'Listed' });
    await waitFor(() => expect(worker.received.some((m) => m.type === 'getPageMatches')).toBe(true));
    expect(screen.queryByRole('region', { name: 'On this page' })).toBeNull();
  });
});
