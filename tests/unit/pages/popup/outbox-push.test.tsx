// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { OUTBOX_PORT, type EventsPortMessage } from '@/lib/events/port';
import type { OutboxEntryView } from '@/lib/messaging/protocol';
import { sendMessage } from '@/lib/messaging/client';
import { PopupPage } from '@/lib/pages/popup/PopupPage';
import { outboxFollower } from '@/lib/pages/workerPush';
import { clearPopupSnapshot, type PopupDraft } from '@/lib/store/snapshot';
import { serveMessages } from '../support';
import { keyedState, opened, page, playbook } from './fixtures';

afterEach(cleanup);

const IDS = {
  a: '00000000-0000-4000-8000-00000000000a',
  b: '00000000-0000-4000-8000-00000000000b',
  c: '00000000-0000-4000-8000-00000000000c',
};

function draft(id: keyof typeof IDS, over: Partial<OutboxEntryView> = {}): PopupDraft {
  return {
    id: IDS[id],
    origin: 'content-script',
    operationId: 'createPlaybook',
    draft: { body: { title: `Draft ${id}` } },
    status: 'pending',
    createdAt: '2026-03-01T11:00:00Z',
    updatedAt: '2026-03-01T11:50:00Z',
    label: 'Create playbook',
    ...over,
  };
}

/** The worker's end of the popup's port: what it posts reaches the page as the browser would deliver it. */
function fakeWorkerPort() {
  const listeners = new Set<(message: unknown) => void>();
  const names: string[] = [];
  vi.spyOn(fakeBrowser.runtime, 'connect').mockImplementation(((info: { name: string }) => {
    names.push(info.name);
    return {
      name: info.name,
      onMessage: { addListener: (listener: (message: unknown) => void) => listeners.add(listener) },
      onDisconnect: { addListener: () => undefined },
      postMessage: () => undefined,
      disconnect: () => undefined,
    };
  }) as never);
  return {
    names,
    post: (message: EventsPortMessage) => listeners.forEach((listener) => listener(message)),
  };
}

describe('the popup follows drafts by push', () => {
  beforeEach(async () => {
    vi.spyOn(fakeBrowser.windows, 'getCurrent').mockResolvedValue({ id: 1 } as never);
    await clearPopupSnapshot();
  });

  it('updates "Drafts waiting" from the pushed change, and reads no outbox after an action', async () => {
    const port = fakeWorkerPort();
    const worker = serveMessages({
      openPopup: () => opened(keyedState, { outbox: [draft('a'), draft('b')] }),
      getOverview: () => ({ deprecations: [] }),
      getPageMatches: () => ({ tickers: [], matches: [] }),
      listOutbox: () => [draft('b')],
      discardDraft: () => ({ discarded: true as const }),
    });
    render(<PopupPage />);
    await screen.findByRole('heading', { name: 'Drafts waiting (2)' });

    fireEvent.click(screen.getByRole('button', { name: 'Discard Draft a' }));
    await waitFor(() => expect(worker.received.map((message) => message.type)).toContain('discardDraft'));
    // The discard is answered; the list changes only when the worker pushes the change.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Discard Draft a' })).toHaveProperty('disabled', false),
    );
    expect(screen.getByRole('heading', { name: 'Drafts waiting (2)' })).toBeTruthy();

    port.post({ type: 'outbox', change: { id: IDS.a, removed: true } });
    await screen.findByRole('heading', { name: 'Drafts waiting (1)' });
    expect(screen.queryByRole('button', { name: 'Discard Draft a' })).toBeNull();

    // A new draft and a failure arrive the same way.
    port.post({ type: 'outbox', change: draft('c') });
    await screen.findByRole('heading', { name: 'Drafts waiting (2)' });
    port.post({ type: 'outbox', change: draft('b', { status: 'failed' }) });
    await screen.findByRole('button', { name: 'Retry Draft b' });
    expect(worker.received.filter((message) => message.type === 'listOutbox')).toEqual([]);
    // The popup's own port: it follows drafts and starts no event stream.
    expect(port.names).toEqual([OUTBOX_PORT]);
  });

  it('a late openPopup answer, read before a push, does not undo it', async () => {
    const port = fakeWorkerPort();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The worker read its outbox (a and b) before a was discarded and c drafted; its answer lands after both pushes.
    const stale = { outbox: [draft('a'), draft('b')] };
    serveMessages({
      openPopup: async () => {
        await held;
        return opened(keyedState, { ...stale, page: page([playbook('p', 'Fresh row')]) });
      },
      getOverview: () => ({ deprecations: [] }),
      getPageMatches: () => ({ tickers: [], matches: [] }),
    });
    render(
      <PopupPage
        opening={{ first: opened(keyedState, stale), fresh: false, answer: sendMessage('openPopup', {}) }}
      />,
    );
    await screen.findByRole('button', { name: 'Discard Draft a' });
    port.post({ type: 'outbox', change: { id: IDS.a, removed: true } });
    port.post({ type: 'outbox', change: draft('c', { updatedAt: '2026-03-01T12:00:00Z' }) });
    await screen.findByRole('button', { name: 'Discard Draft c' });
    release();
    await screen.findByRole('button', { name: 'Fresh row' });
    expect(screen.getByRole('heading', { name: 'Drafts waiting (2)' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Discard Draft a' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Discard Draft c' })).toBeTruthy();
  });
});

describe('outboxFollower: pushes win over a list read before them', () => {
  const follow = () =>
    outboxFollower<PopupDraft>((entry, known) => ({ ...entry, label: known?.label ?? 'new' }));

  it('replays the last push per draft over a list read later, unless the read entry is newer', () => {
    const follower = follow();
    let shown = [draft('a'), draft('b')];
    shown = follower.pushed(shown, { id: IDS.a, removed: true });
    shown = follower.pushed(shown, draft('b', { status: 'failed', updatedAt: '2026-03-01T12:00:00Z' }));
    follower.pushed(shown, draft('c', { updatedAt: '2026-03-01T12:00:00Z' }));
    const older = follower.read([draft('a'), draft('b')]);
    expect(older.map((entry) => [entry.id, entry.status])).toEqual([
      [IDS.b, 'failed'],
      [IDS.c, 'pending'],
    ]);
    // A read that already holds a later state of b keeps it.
    const newer = follower.read([draft('b', { status: 'sent', updatedAt: '2026-03-01T12:30:00Z' })]);
    expect(newer.map((entry) => [entry.id, entry.status])).toEqual([
      [IDS.b, 'sent'],
      [IDS.c, 'pending'],
    ]);
  });
});
