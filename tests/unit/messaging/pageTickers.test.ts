import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { answerPageTickers, PAGE_TICKERS_QUERY } from '@/lib/messaging/pageTickers';

const ours = { id: fakeBrowser.runtime.id };
type Listener = (message: unknown, sender: { id?: string }) => unknown;

/** The listener the content script adds, called as the browser would. */
function listen(detect: () => string[]): { listener: Listener; remove: () => void } {
  const added = vi.spyOn(fakeBrowser.runtime.onMessage, 'addListener');
  const remove = answerPageTickers(detect);
  const listener = added.mock.calls[0][0] as Listener;
  added.mockRestore();
  return { listener, remove };
}

describe('the content script answers which tickers its page names', () => {
  beforeEach(() => fakeBrowser.reset());

  it('answers the worker what it detects at the time of asking', async () => {
    let tickers = ['NVDA'];
    const { listener } = listen(() => tickers);
    expect(await listener(PAGE_TICKERS_QUERY, ours)).toEqual({ tickers: ['NVDA'] });
    tickers = ['MSFT'];
    expect(await listener(PAGE_TICKERS_QUERY, ours)).toEqual({ tickers: ['MSFT'] });
  });

  it.each([
    ['another message', { type: 'countPageMatches' }, ours],
    ['a bare string', 'pageTickers', ours],
    ['null', null, ours],
    ['another key', { kind: 'pageTickers' }, ours],
    ['another extension', PAGE_TICKERS_QUERY, { id: 'another-extension' }],
    ['no sender id', PAGE_TICKERS_QUERY, {}],
  ])('leaves %s unanswered (returns nothing, so other listeners may answer)', (_, message, sender) => {
    const detect = vi.fn(() => ['NVDA']);
    const { listener } = listen(detect);
    expect(listener(message, sender)).toBeUndefined();
    expect(detect).not.toHaveBeenCalled();
  });

  it('stops answering once removed (the extension context went away)', async () => {
    const { remove } = listen(() => ['NVDA']);
    expect(await fakeBrowser.runtime.onMessage.trigger(PAGE_TICKERS_QUERY, ours)).toEqual([
      { tickers: ['NVDA'] },
    ]);
    remove();
    expect(await fakeBrowser.runtime.onMessage.trigger(PAGE_TICKERS_QUERY, ours)).toEqual([]);
  });
});
