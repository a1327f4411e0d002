// @vitest-environment happy-dom
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { render as renderInto } from 'preact';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { setLogSink } from '@/lib/log';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Playbook } from '@/lib/api/schemas';
import type { PlaybookPage, PopupOpened } from '@/lib/messaging/protocol';
import { sendMessage } from '@/lib/messaging/client';
import { PopupPage, type PopupOpening } from '@/lib/pages/popup/PopupPage';
import { startPopup } from '@/lib/pages/popup/start';
import { database } from '@/lib/store/db';
import { clearPopupSnapshot, snapshotGeneration, writePopupSnapshot } from '@/lib/store/snapshot';
import { serveMessages, type StubHandlers } from '../support';
import { keyedState, keylessState, opened, page, playbook } from './fixtures';

afterEach(cleanup);

const keyed = keyedState;
const keyless = keylessState;

const base: StubHandlers = { getPageMatches: () => ({ tickers: [], matches: [] }) };

/** A promise and the function that settles it, for answers the test releases. */
function held<T>(): { promise: Promise<T>; release: (value: T) => void } {
  let release: (value: T) => void = () => undefined;
  const promise = new Promise<T>((resolve) => (release = resolve));
  return { promise, release };
}

/** What start.tsx gives the page when the saved snapshot was read in time. */
function fromSnapshot(first: PopupOpened): PopupOpening {
  return { first, fresh: false, answer: sendMessage('openPopup', {}) };
}

describe('popup first frame (review)', () => {
  beforeEach(async () => {
    vi.spyOn(fakeBrowser.windows, 'getCurrent').mockResolvedValue({ id: 1 } as never);
    await database();
    await clearPopupSnapshot();
  });

  it('without a key, never says "No public playbooks yet." while the public library is still being read', async () => {
    const publicPage = held<PlaybookPage>();
    let publicAsked = false;
    const worker = serveMessages({
      ...base,
      openPopup: () => opened(keyless),
      readView: ({ scope }) => {
        publicAsked = scope === 'public';
        return publicPage.promise;
      },
    });
    // The snapshot says: no key (the usual state of a first-run user after one open).
    render(<PopupPage opening={fromSnapshot(opened(keyless))} />);
    await vi.waitFor(() => expect(worker.received.map((message) => message.type)).toContain('openPopup'));
    expect(publicAsked).toBe(true);
    // The worker's answer (no key, so no page) is in; the public library is not.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(screen.queryByText('No public playbooks yet.')).toBeNull();
    publicPage.release(page([playbook('p1', 'Public one')]));
    await screen.findByRole('button', { name: 'Public one' });
  });

  it('falls back to the worker when a saved record passes the shape check but cannot be drawn', async () => {
    // Rows that pass isPopupSnapshot, a state that does not (an older build's shape): the first
    // render throws, and start.tsx must start again from the worker's answer.
    const unusable = { ...opened(keyed, { page: page([playbook('s', 'Saved')]) }), state: {} };
    await writePopupSnapshot(unusable as unknown as PopupOpened, snapshotGeneration());
    const worker = serveMessages({
      ...base,
      openPopup: () => opened(keyed, { page: page([playbook('f', 'Fresh')]) }),
    });
    const events: string[] = [];
    onTestFinished(setLogSink((entry) => events.push(entry.event)));
    const container = document.body.appendChild(document.createElement('div'));
    container.id = 'fallback';
    await startPopup(container);
    // The record was read and its first render failed: the fallback, not a failed read, is what ran.
    expect(events).toContain('popup.snapshot-unusable');
    // Without the fallback the popup stays blank on every open: nothing else rewrites the record.
    await screen.findByRole('button', { name: 'Fresh' });
    expect(worker.received.filter((message) => message.type === 'openPopup')).toHaveLength(1);
    const drawn = document.getElementById('fallback')!;
    renderInto(null, drawn);
    drawn.remove();
  });

  it('a saved row it cannot draw, below the rows of the first frame: the record is not used, the answer shows', async () => {
    const items = Array.from({ length: 12 }, (_, index) => playbook(`p${index}`, `Saved ${index}`));
    items[10] = { ...items[10], tickers: undefined } as unknown as Playbook;
    await writePopupSnapshot(opened(keyed, { page: page(items) }), snapshotGeneration());
    serveMessages({ ...base, openPopup: () => opened(keyed, { page: page([playbook('f', 'Fresh')]) }) });
    const container = document.body.appendChild(document.createElement('div'));
    await startPopup(container);
    await screen.findByRole('button', { name: 'Fresh' });
    expect(screen.queryByRole('button', { name: 'Saved 0' })).toBeNull();
  });

  it('rows fetched with Load more on a snapshot paint are not dropped when the fresh first page lands', async () => {
    const answer = held<PopupOpened>();
    serveMessages({
      ...base,
      openPopup: () => answer.promise,
      readView: ({ cursor }) =>
        cursor === 'c1' ? page([playbook('b', 'Second page row')]) : page([playbook('a', 'First')]),
    });
    const snapshot = opened(keyed, {
      page: page([playbook('a', 'First')], { nextCursor: 'c1', hasMore: true }),
    });
    render(<PopupPage opening={fromSnapshot(snapshot)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByRole('button', { name: 'Second page row' });
    answer.release(
      opened(keyed, { page: page([playbook('a', 'First')], { nextCursor: 'c1', hasMore: true }) }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: 'Second page row' })).not.toBeNull();
  });
});
