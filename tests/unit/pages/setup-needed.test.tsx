// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { MessageName } from '@/lib/messaging';
import { database } from '@/lib/store/db';
import { clearState } from '@/lib/store/state';
import { serveMessages, type StubHandlers } from './support';

/**
 * A fresh store install before the first-run setup: the popup and the side panel, served
 * by the worker's real handlers, point to the setup and send nothing to any service. Store mode is
 * simulated as tests/unit/store/firstRun.test.ts does; every module is loaded in it per test.
 */

// The events port is lib/events' subject (its guard is tested in firstRun.test.ts): a closed one here.
vi.mock('@/lib/pages/sidepanel/eventsPort', () => ({
  useEventsPort: () => ({ unread: 0, stream: 'off', setUnread: () => undefined, reload: () => undefined }),
}));

const SETUP_TEXT = 'Set up the service to see your playbooks.';
/** Messages whose handlers read the service: none may be sent while it is not set up. */
const READS: MessageName[] = [
  'readView',
  'listPlaybooks',
  'getPlaybook',
  'readPlaybook',
  'refreshPlaybooks',
  'getOverview',
  'testConnection',
  'runDiscovery',
  'getDiscoveryReport',
  'mcpListTools',
  'pollEventsNow',
];

let fetchSpy: ReturnType<typeof vi.fn>;

async function inStoreMode() {
  vi.stubEnv('MODE', 'store');
  vi.resetModules();
  const { handlerTable } = await import('@/lib/background/handlers');
  const table = handlerTable();
  // The worker's own answers, except "On this page", which reads the open tab, not the service.
  const handlers: StubHandlers = {
    getState: table.getState,
    openPopup: table.openPopup,
    listOutbox: table.listOutbox,
    getPageMatches: () => ({ tickers: [], matches: [] }),
    ...Object.fromEntries(READS.map((name) => [name, table[name]])),
  } as unknown as StubHandlers; // none of these handlers reads its sender, which serveMessages omits
  return {
    handlers,
    PopupPage: (await import('@/lib/pages/popup/PopupPage')).PopupPage,
    SidePanelPage: (await import('@/lib/pages/sidepanel/SidePanelPage')).SidePanelPage,
    settings: await import('@/lib/store/settings'),
  };
}

let store: Awaited<ReturnType<typeof inStoreMode>>;
// Loading every module again in store mode takes seconds on a busy 2-core machine: once, not per test.
beforeAll(async () => {
  store = await inStoreMode();
  // For the whole file: a read the last test starts may still run after it ends.
  fetchSpy = vi.fn(() => Promise.resolve(new Response('{}', { status: 200 })));
  vi.stubGlobal('fetch', fetchSpy);
}, 60_000);
afterAll(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

beforeEach(async () => {
  fakeBrowser.reset();
  await clearState();
  // A fresh install: no service saved by an earlier test.
  await (await database()).delete('settings', 'settings');
  fetchSpy.mockClear();
  fakeBrowser.runtime.getManifest = () => ({ manifest_version: 3, name: 'test', version: '0.1.0' });
  vi.spyOn(fakeBrowser.windows, 'getCurrent').mockResolvedValue({ id: 1 } as never);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** Lets every pending answer and timer of the first moments run (the popup defers discovery by 1.5 s). */
async function settle(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('before the first-run setup saved a service', () => {
  it('the popup says to set the service up, opens the setup from its button, and sends no request', async () => {
    const { handlers, PopupPage } = store;
    const worker = serveMessages(handlers, '/popup.html');
    const open = vi.fn(() => Promise.resolve());
    fakeBrowser.runtime.openOptionsPage = open;
    render(<PopupPage />);
    expect(await screen.findByText(SETUP_TEXT)).toBeTruthy();
    await settle();
    expect(screen.queryByText(/not a valid URL/i)).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    // No list, no status: nothing that could only show a failure.
    expect(screen.queryByRole('group', { name: 'Which playbooks' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Set up the service' }));
    await waitFor(() => expect(open).toHaveBeenCalledTimes(1));
    const sent = worker.received.map((message) => message.type);
    expect(sent.filter((type) => READS.includes(type))).toEqual([]);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('the side panel says to set the service up instead of its tabs, opens the setup, and sends no request', async () => {
    const { handlers, SidePanelPage } = store;
    const worker = serveMessages(handlers, '/sidepanel.html');
    const open = vi.fn(() => Promise.resolve());
    fakeBrowser.runtime.openOptionsPage = open;
    render(<SidePanelPage />);
    expect(await screen.findByText(SETUP_TEXT)).toBeTruthy();
    await settle();
    expect(screen.queryByText(/not a valid URL/i)).toBeNull();
    expect(screen.queryByRole('tab')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Set up the service' }));
    await waitFor(() => expect(open).toHaveBeenCalledTimes(1));
    const sent = worker.received.map((message) => message.type);
    expect(sent).toEqual(['getState']);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('the side panel, left open while the service is saved, shows its tabs once back in focus', async () => {
    const { handlers, SidePanelPage, settings } = store;
    // The page is the subject here: the reads its tabs start once set up stay unanswered.
    const pending = () => new Promise<never>(() => undefined);
    serveMessages(
      { ...handlers, ...Object.fromEntries(READS.map((name) => [name, pending])) },
      '/sidepanel.html',
    );
    render(<SidePanelPage />);
    expect(await screen.findByText(SETUP_TEXT)).toBeTruthy();
    await settings.saveSettings({
      serviceUrl: 'https://agent.example',
      apiUrl: 'https://agent.example/api/v1',
    });
    // Preact attaches the listener after the frame is painted: focus until it has.
    await waitFor(() => {
      fireEvent.focus(window);
      expect(screen.getByRole('tab', { name: 'Playbooks' })).toBeTruthy();
    });
    expect(screen.queryByText(SETUP_TEXT)).toBeNull();
  });
});
