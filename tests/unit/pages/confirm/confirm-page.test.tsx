// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Playbook } from '@/lib/api/schemas';
import type { PendingWrite, WriteDraft } from '@/lib/messaging/protocol';
import type { OutboxEntry } from '@/lib/contract/outbox';
import { DRAFT_ID, entry } from './fixtures';
import { ConfirmPage } from '@/lib/pages/confirm/ConfirmPage';
import { serveMessages, workerFailure, type StubHandlers } from '../support';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function pending(over: Partial<OutboxEntry<WriteDraft>> = {}): PendingWrite {
  return { entry: entry(over), consequence: 'A draft playbook is created.' };
}

/** The confirm window is the sender. */
const serveConfirm = (handlers: StubHandlers) => serveMessages(handlers, '/confirm.html');

describe('ConfirmPage', () => {
  it('sends the confirmed form for its draft once Confirm arms, then links to the new playbook', async () => {
    vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    const worker = serveConfirm({
      getPendingWrite: () => pending(),
      confirmWrite: (request) => ({
        ...entry({ status: 'sent' }),
        draft: { body: request.body, result: { playbookId: 'pb 1' } },
      }),
    });
    render(<ConfirmPage draftId={DRAFT_ID} />);
    fireEvent.input(await screen.findByLabelText('Title'), { target: { value: 'Edited title' } });
    const confirm = screen.getByRole<HTMLButtonElement>('button', { name: 'Confirm' });
    await waitFor(() => expect(confirm.disabled).toBe(false), { timeout: 3000 });
    fireEvent.click(confirm);
    const link = await screen.findByRole('link', { name: 'Open the playbook' });
    expect(link.getAttribute('href')).toBe(
      `${fakeBrowser.runtime.getURL('/sidepanel.html')}?playbook=pb%201`,
    );
    expect(worker.received.find((m) => m.type === 'confirmWrite')?.payload).toEqual({
      id: DRAFT_ID,
      body: { title: 'Edited title', thesis: 'Services grow.', tickers: ['AAPL'], visibility: 'private' },
    });
  });

  it('shows why an update cannot be shown, not a blank form, when the playbook cannot be read', async () => {
    serveConfirm({
      getPendingWrite: () =>
        pending({ operationId: 'updatePlaybook', draft: { playbookId: 'pb-1', body: { title: 'New' } } }),
      getPlaybook: () => {
        throw workerFailure({ code: 'api.network', message: 'The service could not be reached.' });
      },
    });
    render(<ConfirmPage draftId={DRAFT_ID} />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The playbook could not be read');
    expect(alert.textContent).toContain('The service could not be reached.');
    expect(screen.queryByLabelText('Title')).toBeNull();
  });

  it('starts an update from the playbook as it is now', async () => {
    const current: Playbook = {
      id: 'pb-1',
      title: 'Old title',
      thesis: 'Kept thesis.',
      visibility: 'unlisted',
      status: 'draft',
      tickers: ['MSFT'],
      owner: { id: 'u', name: 'U' },
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      etag: '"1"',
    };
    serveConfirm({
      getPendingWrite: () =>
        pending({ operationId: 'updatePlaybook', draft: { playbookId: 'pb-1', body: { title: 'New' } } }),
      getPlaybook: () => current,
    });
    render(<ConfirmPage draftId={DRAFT_ID} />);
    expect((await screen.findByLabelText<HTMLInputElement>('Title')).value).toBe('New');
    expect(screen.getByLabelText<HTMLTextAreaElement>('Thesis').value).toBe('Kept thesis.');
    expect(screen.getByLabelText<HTMLSelectElement>('Visibility').value).toBe('unlisted');
  });
});

describe('ConfirmPage as a dialog in the user’s terms (issue 33)', () => {
  const playbook: Playbook = {
    id: 'pb_d07MfnkYsei7',
    title: 'Grid modernization',
    thesis: 'Capex.',
    visibility: 'private',
    status: 'draft',
    tickers: ['NEE'],
    owner: { id: 'u', name: 'U' },
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    etag: '"1"',
  };
  const accountWith = (linked: boolean) => ({
    deprecations: [],
    account: {
      id: 'u',
      name: 'Demo Investor',
      email: 'demo@example.com',
      plan: 'pro',
      permissions: [],
      brokerage_linked: linked,
    },
  });
  /** The service's document names the brokerages a link may go to. */
  const report = {
    documents: {
      openapi: {
        paths: {
          '/brokerage/links': {
            post: {
              operationId: 'createBrokerageLink',
              requestBody: {
                content: {
                  'application/json': {
                    schema: { properties: { provider: { enum: ['sandbox-broker', 'alpaca'] } } },
                  },
                },
              },
            },
          },
        },
      },
    },
  };

  it('names the playbook of a backtest by its title', async () => {
    serveConfirm({
      getPendingWrite: () =>
        pending({
          operationId: 'runBacktest',
          draft: {
            playbookId: playbook.id,
            body: { start: '2021-01-04', end: '2024-12-31', benchmark: 'SPY' },
          },
        }),
      getPlaybook: () => playbook,
    });
    render(<ConfirmPage draftId={DRAFT_ID} />);
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(
      'Run a backtest of “Grid modernization”, Jan 4, 2021 – Dec 31, 2024, against SPY',
    );
  });

  it('Escape discards the draft exactly as Cancel does', async () => {
    const close = vi.spyOn(globalThis, 'close').mockImplementation(() => undefined);
    const worker = serveConfirm({
      getPendingWrite: () => pending(),
      discardDraft: () => ({ discarded: true }),
    });
    render(<ConfirmPage draftId={DRAFT_ID} />);
    const heading = await screen.findByRole('heading', { level: 1 });
    // Open: focus is on the heading (the dialog's effects have run).
    await waitFor(() => expect(document.activeElement).toBe(heading));
    fireEvent.keyDown(screen.getByLabelText('Title'), { key: 'Escape' });
    await waitFor(() => expect(close).toHaveBeenCalledOnce());
    expect(worker.received.filter((m) => m.type === 'discardDraft')).toEqual([
      { type: 'discardDraft', payload: { id: DRAFT_ID } },
    ]);
    expect(worker.received.some((m) => m.type === 'confirmWrite')).toBe(false);
  });

  it('says an activation needs a linked brokerage before anything is typed, and requests the link', async () => {
    const close = vi.spyOn(globalThis, 'close').mockImplementation(() => undefined);
    const worker = serveConfirm({
      getPendingWrite: () => ({
        ...pending({ operationId: 'activatePlaybook', draft: { playbookId: playbook.id } }),
        typeToConfirm: playbook.title,
      }),
      getPlaybook: () => playbook,
      getOverview: () => accountWith(false),
      getDiscoveryReport: () => report as never,
      requestWrite: () => ({ draftId: '9a1c8a52-6f0e-4d7b-9a43-2b1f0f6c1d22' }),
    });
    render(<ConfirmPage draftId={DRAFT_ID} />);
    expect((await screen.findByRole('note')).textContent).toContain('No brokerage account is linked');
    expect(screen.queryByRole('textbox')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Link a brokerage account' }));
    await waitFor(() => expect(close).toHaveBeenCalledOnce());
    expect(worker.received.find((m) => m.type === 'requestWrite')?.payload).toEqual({
      operationId: 'createBrokerageLink',
      body: { provider: 'sandbox-broker' },
    });
    // The activation itself is neither sent nor discarded: it waits in the popup's drafts.
    expect(worker.received.some((m) => m.type === 'confirmWrite' || m.type === 'discardDraft')).toBe(false);
  });

  it('asks for the typed name when the brokerage is linked', async () => {
    serveConfirm({
      getPendingWrite: () => ({
        ...pending({ operationId: 'activatePlaybook', draft: { playbookId: playbook.id } }),
        typeToConfirm: playbook.title,
      }),
      getPlaybook: () => playbook,
      getOverview: () => accountWith(true),
    });
    render(<ConfirmPage draftId={DRAFT_ID} />);
    expect(await screen.findByLabelText(`Type “${playbook.title}” to confirm`)).toBeTruthy();
    expect(screen.queryByRole('note')).toBeNull();
  });
});
