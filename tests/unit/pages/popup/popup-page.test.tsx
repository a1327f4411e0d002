// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { PopupOpened } from '@/lib/messaging/protocol';
import {
  clearPopupSnapshot,
  snapshotGeneration,
  writePopupSnapshot,
  type PopupSnapshot,
} from '@/lib/store/snapshot';
import { PopupPage } from '@/lib/pages/popup/PopupPage';
import { serveMessages, workerFailure, type StubHandlers } from '../support';
import { keyedState, opened as openedFor, page, playbook } from './fixtures';

afterEach(cleanup);

const state = keyedState;
const opened = (over: Partial<PopupOpened> = {}) => openedFor(state, over);

async function saved(over: Partial<PopupSnapshot> = {}): Promise<void> {
  await writePopupSnapshot({ ...opened(), ...over }, snapshotGeneration());
}

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
    await saved({ page: page([playbook('a', 'Saved title')]) });
    let release: () => void = () => undefined;
    const answer = new Promise<void>((resolve) => (release = resolve));
    const worker = serveMessages({
      ...base,
      openPopup: async () => {
        await answer;
        return opened({ page: page([playbook('a', 'Fresh title'), playbook('b', 'New one')]) });
      },
    });
    render(<PopupPage />);
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
    render(<PopupPage snapshotRead={Promise.resolve(snapshot)} initialSnapshot={snapshot} />);
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
    render(<PopupPage snapshotRead={Promise.resolve(snapshot)} initialSnapshot={snapshot} />);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(worker.received).toEqual([]);
    dispatchEvent(new Event('pagehide'));
    await vi.waitFor(() => expect(worker.received.map((message) => message.type)).toEqual(['openPopup']));
    // Sent once: the frame that never came cannot send it again.
    dispatchEvent(new Event('pagehide'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(worker.received).toHaveLength(1);
  });

  it('paints from a snapshot read started before it rendered', async () => {
    serveMessages({ ...base, openPopup: () => new Promise<never>(() => undefined) });
    const snapshotRead = Promise.resolve({ ...opened(), page: page([playbook('e', 'Read early')]) });
    render(<PopupPage snapshotRead={snapshotRead} />);
    await screen.findByRole('button', { name: 'Read early' });
    expect(screen.getByText('Cached')).toBeTruthy();
  });

  it('keeps the rows under the pointer where they are: new rows are appended, the new order waits', async () => {
    await saved({ page: page([playbook('a', 'A'), playbook('b', 'B')]) });
    let release: () => void = () => undefined;
    const answer = new Promise<void>((resolve) => (release = resolve));
    serveMessages({
      ...base,
      openPopup: async () => {
        await answer;
        return opened({ page: page([playbook('c', 'C'), playbook('b', 'B2'), playbook('a', 'A2')]) });
      },
    });
    render(<PopupPage />);
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
      listPlaybooks: (request) =>
        request.cursor === 'c1' ? page([playbook('b', 'Second'), playbook('c', 'Third')]) : page([]),
    });
    render(<PopupPage />);
    fireEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    await screen.findByRole('button', { name: 'Third' });
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    expect(screen.getByText('All 3 shown')).toBeTruthy();
    expect(worker.received.filter((m) => m.type === 'listPlaybooks').map((m) => m.payload)).toEqual([
      { cursor: 'c1' },
    ]);
  });

  it('without a key, reads the public library and never the private list', async () => {
    const worker = serveMessages({
      ...base,
      openPopup: () => opened({ state: { ...state, key: { set: false } } }),
      listPublicPlaybooks: () => page([playbook('p', 'Public idea')]),
    });
    render(<PopupPage />);
    await screen.findByRole('button', { name: 'Public idea' });
    expect(screen.getByText('Connect your account')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(worker.received.filter((m) => m.type === 'listPlaybooks')).toEqual([]);
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
      listPlaybooks: () => page([playbook('a', 'Back again')]),
    });
    render(<PopupPage />);
    const alert = await screen.findByRole('alert');
    fireEvent.click(alert.querySelector('button') as HTMLButtonElement);
    await screen.findByRole('button', { name: 'Back again' });
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('a worker that does not answer still leaves the saved snapshot on screen', async () => {
    await saved({ page: page([playbook('a', 'Saved title')]) });
    serveMessages({
      ...base,
      openPopup: () => {
        throw workerFailure({ code: 'internal', message: 'The extension did not answer. Try again.' });
      },
    });
    render(<PopupPage />);
    await screen.findByRole('button', { name: 'Saved title' });
    await screen.findByRole('alert');
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
