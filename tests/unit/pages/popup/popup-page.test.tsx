// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { sendMessage } from '@/lib/messaging/client';
import type { PopupOpened } from '@/lib/messaging/protocol';
import {
  clearPopupSnapshot,
  snapshotGeneration,
  writeCachedView,
  type PopupSnapshot,
} from '@/lib/store/snapshot';
import { PopupPage, type PopupOpening } from '@/lib/pages/popup/PopupPage';
import { popupOpening } from '@/lib/pages/popup/start';
import { savedCopy } from '@/lib/pages/popup/views';
import { serveMessages, workerFailure, type StubHandlers } from '../support';
import { keyedState, opened as openedFor, page, playbook } from './fixtures';

afterEach(cleanup);

const state = keyedState;
const opened = (over: Partial<PopupOpened> = {}) => openedFor(state, over);

/** What start.tsx gives the page when the saved snapshot was read in time: it, and the worker's answer to come. */
function fromSnapshot(over: Partial<PopupSnapshot> = {}): PopupOpening {
  const first = { ...opened(), ...over };
  if (first.page) first.page = savedCopy(first.page);
  return { first, fresh: false, answer: sendMessage('openPopup', {}) };
}

/** Waits no machine reaches when the database or the worker does answer. */
const PATIENT = { snapshotMs: 30_000, answerMs: 30_000 };

const rowTitles = () =>
  screen.getAllByRole('listitem').map((row) => row.querySelector('button')?.textContent);

const base: StubHandlers = {
  getState: () => state,
  getOverview: () => ({ deprecations: [] }),
  listOutbox: () => [],
  getPageMatches: () => ({ tickers: [], matches: [] }),
};

describe('PopupPage', () => {
  beforeEach(async () => {
    vi.spyOn(fakeBrowser.windows, 'getCurrent').mockResolvedValue({ id: 1 } as never);
    await clearPopupSnapshot();
  });

  it('paints its saved snapshot before the worker answers, with one message at mount, then updates rows in place', async () => {
    let release: () => void = () => undefined;
    const answer = new Promise<void>((resolve) => (release = resolve));
    const worker = serveMessages({
      ...base,
      openPopup: async () => {
        await answer;
        return opened({ page: page([playbook('a', 'Fresh title'), playbook('b', 'New one')]) });
      },
    });
    render(<PopupPage opening={fromSnapshot({ page: page([playbook('a', 'Saved title')]) })} />);
    const savedRow = (await screen.findByRole('button', { name: 'Saved title' })).closest('li');
    release();
    const freshRow = (await screen.findByRole('button', { name: 'Fresh title' })).closest('li');
    expect(freshRow).toBe(savedRow);
    expect(rowTitles()).toEqual(['Fresh title', 'New one']);
    // One message for the list; the only other is "On this page", asked after the first paint.
    const types = worker.received.map((message) => message.type);
    expect(types.filter((type) => type !== 'getPageMatches')).toEqual(['openPopup']);
  });

  it('draws the rows of a snapshot read before it rendered in its first frame, and asks the worker only after that frame', async () => {
    const frames: FrameRequestCallback[] = [];
    const frame = vi
      .spyOn(globalThis, 'requestAnimationFrame')
      .mockImplementation((callback) => frames.push(callback));
    onTestFinished(() => frame.mockRestore());
    const worker = serveMessages({
      ...base,
      openPopup: () => opened({ page: page([playbook('f', 'Fresh')]) }),
    });
    const snapshot = { ...opened(), page: page([playbook('s', 'From snapshot')]) };
    render(<PopupPage opening={await popupOpening(Promise.resolve(snapshot), PATIENT)} />);
    // Synchronously, in the first render: no effect, message or promise has run yet.
    expect(screen.getByRole('button', { name: 'From snapshot' })).toBeTruthy();
    expect(screen.getByText('Cached')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(worker.received).toEqual([]);
    for (const callback of frames.splice(0)) callback(performance.now());
    await screen.findByRole('button', { name: 'Fresh' });
    expect(worker.received.map((message) => message.type)).toContain('openPopup');
  });

  it('a popup closed before its first frame still asks the worker to refresh the snapshot', async () => {
    // A closed popup never gets a frame: nothing after requestAnimationFrame runs.
    const frame = vi.spyOn(globalThis, 'requestAnimationFrame').mockImplementation(() => 0);
    onTestFinished(() => frame.mockRestore());
    const worker = serveMessages({ ...base, openPopup: () => opened() });
    const snapshot = { ...opened(), page: page([playbook('s', 'From snapshot')]) };
    render(<PopupPage opening={await popupOpening(Promise.resolve(snapshot), PATIENT)} />);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(worker.received).toEqual([]);
    dispatchEvent(new Event('pagehide'));
    await vi.waitFor(() => expect(worker.received.map((message) => message.type)).toEqual(['openPopup']));
    // Sent once: the frame that never came cannot send it again.
    dispatchEvent(new Event('pagehide'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(worker.received).toHaveLength(1);
  });

  it('paints the rows of a snapshot read that outlasted the first frame once it lands', async () => {
    serveMessages({ ...base, openPopup: () => new Promise<never>(() => undefined) });
    const late = Promise.resolve({ ...opened(), page: savedCopy(page([playbook('e', 'Read early')])) });
    render(<PopupPage opening={{ fresh: false, answer: sendMessage('openPopup', {}), late }} />);
    await screen.findByRole('button', { name: 'Read early' });
    expect(screen.getByText('Cached')).toBeTruthy();
  });

  it('keeps the rows under the pointer where they are: new rows are appended, the new order waits', async () => {
    let release: () => void = () => undefined;
    const answer = new Promise<void>((resolve) => (release = resolve));
    serveMessages({
      ...base,
      openPopup: async () => {
        await answer;
        return opened({ page: page([playbook('c', 'C'), playbook('b', 'B2'), playbook('a', 'A2')]) });
      },
    });
    render(<PopupPage opening={fromSnapshot({ page: page([playbook('a', 'A'), playbook('b', 'B')]) })} />);
    await screen.findByRole('button', { name: 'A' });
    const list = screen.getByRole('list', { name: 'Playbooks' });
    fireEvent.pointerEnter(list);
    release();
    await screen.findByRole('button', { name: 'C' });
    expect(rowTitles()).toEqual(['A2', 'B2', 'C']);
    fireEvent.pointerLeave(list);
    await waitFor(() => expect(rowTitles()).toEqual(['C', 'B2', 'A2']));
  });

  it('follows the cursor on Load more and appends without duplicates', async () => {
    const worker = serveMessages({
      ...base,
      openPopup: () =>
        opened({
          page: page([playbook('a', 'First'), playbook('b', 'Second')], { hasMore: true, nextCursor: 'c1' }),
        }),
      readView: (request) =>
        request.cursor === 'c1' ? page([playbook('b', 'Second'), playbook('c', 'Third')]) : page([]),
    });
    render(<PopupPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    await screen.findByRole('button', { name: 'Third' });
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    expect(screen.getByText('All 3 shown')).toBeTruthy();
    // One message for the next page of the view on screen.
    expect(worker.received.filter((m) => m.type !== 'getPageMatches').map((m) => m.payload)).toEqual([
      {},
      { scope: 'mine', cursor: 'c1' },
    ]);
  });

  it('without a key, reads the public library and never the private list', async () => {
    const worker = serveMessages({
      ...base,
      openPopup: () => opened({ state: { ...state, key: { set: false } } }),
      readView: (request) => (request.scope === 'public' ? page([playbook('p', 'Public idea')]) : page([])),
    });
    render(<PopupPage />);
    await screen.findByRole('button', { name: 'Public idea' });
    expect(screen.getByText('Connect your account')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(worker.received.filter((m) => m.type === 'readView').map((m) => m.payload)).toEqual([
      { scope: 'public' },
    ]);
  });

  it('a 401 on open shows the sign-in banner with the service’s link', async () => {
    serveMessages({
      ...base,
      openPopup: () =>
        opened({
          pageError: {
            code: 'api.unauthorized',
            message: 'listPlaybooks needs a valid API key.',
            details: { kind: 'unauthorized', status: 401, link: 'http://127.0.0.1:8787/apikey' },
          },
        }),
    });
    render(<PopupPage />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your API key was not accepted');
    expect(screen.getByRole('link', { name: 'http://127.0.0.1:8787/apikey' })).toBeTruthy();
  });

  it('Retry after a failure asks again', async () => {
    serveMessages({
      ...base,
      openPopup: () =>
        opened({ pageError: { code: 'api.network', message: 'The service could not be reached.' } }),
      readView: () => page([playbook('a', 'Back again')]),
    });
    render(<PopupPage />);
    const alert = await screen.findByRole('alert');
    fireEvent.click(alert.querySelector('button') as HTMLButtonElement);
    await screen.findByRole('button', { name: 'Back again' });
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('a worker that does not answer still leaves the saved snapshot on screen', async () => {
    serveMessages({
      ...base,
      openPopup: () => {
        throw workerFailure({ code: 'internal', message: 'The extension did not answer. Try again.' });
      },
    });
    render(<PopupPage opening={fromSnapshot({ page: page([playbook('a', 'Saved title')]) })} />);
    await screen.findByRole('button', { name: 'Saved title' });
    await screen.findByRole('alert');
  });
});

describe('PopupPage: every view through the read model, the way the first open goes', () => {
  beforeEach(async () => {
    vi.spyOn(fakeBrowser.windows, 'getCurrent').mockResolvedValue({ id: 1 } as never);
    await clearPopupSnapshot();
  });

  /** A worker whose `readView` answers only when released, so the cached copy is seen first. */
  function heldViews(fresh: (request: { scope: string; visibility?: string }) => PopupOpened['page']) {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const worker = serveMessages({
      ...base,
      openPopup: () => opened({ page: page([playbook('a', 'Mine, all')]) }),
      readView: async (request) => {
        await held;
        return fresh(request)!;
      },
    });
    return { worker, release: () => release() };
  }

  it.each([
    ['the visibility filter', { scope: 'mine', visibility: 'private' } as const],
    ['the scope', { scope: 'public' } as const],
  ])('%s: the cached first page at once, then the fresh one, from one message', async (_name, view) => {
    await writeCachedView(view, 'b', page([playbook('c', 'Cached view')]), snapshotGeneration());
    const { worker, release } = heldViews(() => page([playbook('f', 'Fresh view')]));
    render(<PopupPage />);
    await screen.findByRole('button', { name: 'Mine, all' });
    if (view.scope === 'public') fireEvent.click(screen.getByRole('button', { name: 'Public library' }));
    else fireEvent.change(screen.getByRole('combobox'), { target: { value: 'private' } });
    await screen.findByRole('button', { name: 'Cached view' });
    // Marked as the cached copy it is, with the typed "refreshing" staleness.
    expect(screen.getByText('Cached')).toBeTruthy();
    release();
    await screen.findByRole('button', { name: 'Fresh view' });
    await waitFor(() => expect(screen.queryByText('Cached')).toBeNull());
    const asked = worker.received.filter((m) => m.type !== 'getPageMatches');
    expect(asked.map((m) => m.type)).toEqual(['openPopup', 'readView']);
    expect(asked[1]?.payload).toEqual(view);
  });

  it('shows no cached view read for another service or key', async () => {
    await writeCachedView(
      { scope: 'public' },
      'another',
      page([playbook('x', 'Not yours')]),
      snapshotGeneration(),
    );
    const { release } = heldViews(() => page([playbook('f', 'Fresh view')]));
    render(<PopupPage />);
    await screen.findByRole('button', { name: 'Mine, all' });
    fireEvent.click(screen.getByRole('button', { name: 'Public library' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: 'Not yours' })).toBeNull();
    release();
    await screen.findByRole('button', { name: 'Fresh view' });
  });

  it('a view the service cannot refresh keeps the cached rows, marked failed by the worker', async () => {
    serveMessages({
      ...base,
      openPopup: () => opened({ page: page([playbook('a', 'Mine, all')]) }),
      readView: () =>
        page([playbook('c', 'Cached view')], {
          source: 'cache',
          stale: { kind: 'failed', reason: 'The service could not be reached.' },
        }),
    });
    render(<PopupPage />);
    await screen.findByRole('button', { name: 'Mine, all' });
    fireEvent.click(screen.getByRole('button', { name: 'Public library' }));
    await screen.findByRole('button', { name: 'Cached view' });
    expect(screen.getByText(/not updated$/).getAttribute('title')).toBe('The service could not be reached.');
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
      openPopup: () => opened({ page: page([playbook('a', 'Listed')]) }),
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
    const worker = serveMessages({
      ...base,
      openPopup: () => opened({ page: page([playbook('a', 'Listed')]) }),
    });
    render(<PopupPage />);
    await screen.findByRole('button', { name: 'Listed' });
    await waitFor(() => expect(worker.received.some((m) => m.type === 'getPageMatches')).toBe(true));
    expect(screen.queryByRole('region', { name: 'On this page' })).toBeNull();
  });
});
