import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { answerPageTickers, PAGE_TICKERS_QUERY, type RuntimeLike } from '@/lib/messaging/pageTickers';

const ours = { id: fakeBrowser.runtime.id };
type Listener = (message: unknown, sender: { id?: string }, respond: (answer: unknown) => void) => unknown;

/** The listener the content script adds, called as the browser would. */
function listen(detect: () => Promise<string[]>): { listener: Listener; remove: () => void } {
  const added = vi.spyOn(fakeBrowser.runtime.onMessage, 'addListener');
  const remove = answerPageTickers(fakeBrowser.runtime as unknown as RuntimeLike, detect);
  const listener = added.mock.calls[0][0] as Listener;
  added.mockRestore();
  return { listener, remove };
}

/** Calls the listener like the browser does; resolves with what it answered through `respond`. */
function ask(listener: Listener, message: unknown, sender: { id?: string }): Promise<unknown> {
  return new Promise((resolve) => {
    expect(listener(message, sender, resolve)).toBe(true);
  });
}

describe('the content script answers which tickers its page names', () => {
  beforeEach(() => fakeBrowser.reset());

  it('answers the worker what it detects at the time of asking', async () => {
    let tickers = ['NVDA'];
    const { listener } = listen(() => Promise.resolve(tickers));
    expect(await ask(listener, PAGE_TICKERS_QUERY, ours)).toEqual({ tickers: ['NVDA'] });
    tickers = ['MSFT'];
    expect(await ask(listener, PAGE_TICKERS_QUERY, ours)).toEqual({ tickers: ['MSFT'] });
  });

  it('answers no tickers when detection fails', async () => {
    const { listener } = listen(() => Promise.reject(new Error('no detector')));
    expect(await ask(listener, PAGE_TICKERS_QUERY, ours)).toEqual({ tickers: [] });
  });

  it.each([
    ['another message', { type: 'countPageMatches' }, ours],
    ['a bare string', 'pageTickers', ours],
    ['null', null, ours],
    ['another key', { kind: 'pageTickers' }, ours],
    ['another extension', PAGE_TICKERS_QUERY, { id: 'another-extension' }],
    ['no sender id', PAGE_TICKERS_QUERY, {}],
  ])('leaves %s unanswered (returns nothing, so other listeners may answer)', (_, message, sender) => {
    const detect = vi.fn(() => Promise.resolve(['NVDA']));
    const respond = vi.fn();
    const { listener } = listen(detect);
    expect(listener(message, sender, respond)).toBeUndefined();
    expect(detect).not.toHaveBeenCalled();
    expect(respond).not.toHaveBeenCalled();
  });

  it('stops listening once removed', () => {
    const removed = vi.spyOn(fakeBrowser.runtime.onMessage, 'removeListener');
    const { listener, remove } = listen(() => Promise.resolve(['NVDA']));
    remove();
    expect(removed).toHaveBeenCalledWith(listener);
  });
});
