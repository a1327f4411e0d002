import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ACTIVE_PAGE_SETTLE_MS, watchActivePage } from '@/lib/pages/pageMatches';

const OWN_WINDOW = 7;
const tab = (active: boolean, windowId = OWN_WINDOW) => ({ id: 3, index: 0, active, windowId }) as never;
/** Lets the listeners' check of the panel's window and the quiet spell pass. */
const settled = () => vi.advanceTimersByTimeAsync(ACTIVE_PAGE_SETTLE_MS);

afterEach(() => {
  vi.useRealTimers();
});

describe('the side panel follows the page its window shows', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fakeBrowser.reset();
    vi.spyOn(fakeBrowser.windows, 'getCurrent').mockResolvedValue({ id: OWN_WINDOW } as never);
  });

  it('asks again when a tab is made active in its window, not in another', async () => {
    const changed = vi.fn();
    watchActivePage(changed);
    await fakeBrowser.tabs.onActivated.trigger({ tabId: 3, windowId: OWN_WINDOW });
    await fakeBrowser.tabs.onActivated.trigger({ tabId: 4, windowId: OWN_WINDOW + 1 });
    await settled();
    expect(changed).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['the active tab finished loading', { status: 'complete' }, tab(true), 1],
    ['the active tab is still loading', { status: 'loading' }, tab(true), 0],
    ['its title changed', { title: 'x' }, tab(true), 0],
    ['a background tab finished loading', { status: 'complete' }, tab(false), 0],
    ["another window's active tab finished loading", { status: 'complete' }, tab(true, OWN_WINDOW + 1), 0],
  ])('when %s: asks again %i time(s)', async (_, change, updated, times) => {
    const changed = vi.fn();
    watchActivePage(changed);
    await fakeBrowser.tabs.onUpdated.trigger(3, change, updated);
    await settled();
    expect(changed).toHaveBeenCalledTimes(times);
  });

  it('asks once for a burst of events (a page replacing its address on a timer)', async () => {
    const changed = vi.fn();
    watchActivePage(changed);
    for (let i = 0; i < 20; i++) {
      await fakeBrowser.tabs.onUpdated.trigger(3, { status: 'complete' }, tab(true));
      await vi.advanceTimersByTimeAsync(ACTIVE_PAGE_SETTLE_MS / 2);
    }
    expect(changed).not.toHaveBeenCalled();
    await settled();
    expect(changed).toHaveBeenCalledTimes(1);
  });

  it('stops once removed (the panel closed)', async () => {
    const changed = vi.fn();
    const remove = watchActivePage(changed);
    await fakeBrowser.tabs.onActivated.trigger({ tabId: 3, windowId: OWN_WINDOW });
    remove(); // with a call pending
    // And an event whose window check is still under way when the panel closes.
    const late = watchActivePage(changed);
    void fakeBrowser.tabs.onActivated.trigger({ tabId: 3, windowId: OWN_WINDOW });
    late();
    await fakeBrowser.tabs.onActivated.trigger({ tabId: 3, windowId: OWN_WINDOW });
    await fakeBrowser.tabs.onUpdated.trigger(3, { status: 'complete' }, tab(true));
    await settled();
    expect(changed).not.toHaveBeenCalled();
  });
});
