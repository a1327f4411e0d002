import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { watchActivePage } from '@/lib/pages/pageMatches';

const OWN_WINDOW = 7;
const tab = (active: boolean, windowId = OWN_WINDOW) => ({ id: 3, index: 0, active, windowId }) as never;
/** Lets the listeners' check of the panel's window settle. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the side panel follows the page its window shows', () => {
  beforeEach(() => {
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

  it('stops once removed (the panel closed)', async () => {
    const changed = vi.fn();
    watchActivePage(changed)();
    await fakeBrowser.tabs.onActivated.trigger({ tabId: 3, windowId: OWN_WINDOW });
    await fakeBrowser.tabs.onUpdated.trigger(3, { status: 'complete' }, tab(true));
    await settled();
    expect(changed).not.toHaveBeenCalled();
  });
});
