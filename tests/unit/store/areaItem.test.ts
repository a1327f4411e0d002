import { describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { defineAreaItem } from '@/lib/store/areaItem';

const isNames = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((name) => typeof name === 'string');
const namesItem = defineAreaItem({ area: 'local', key: 'local:names' }, [] as string[], isNames);

describe('defineAreaItem', () => {
  it('reads the fallback until a value is set, then the value, under the name after the area', async () => {
    expect(await namesItem.getValue()).toEqual([]);
    await namesItem.setValue(['a', 'b']);
    expect(await namesItem.getValue()).toEqual(['a', 'b']);
    expect(await fakeBrowser.storage.local.get('names')).toEqual({ names: ['a', 'b'] });
  });

  it('reads a value of the wrong shape (a content script can write storage.local) as the fallback', async () => {
    await fakeBrowser.storage.local.set({ names: 'https://evil.example/*' });
    expect(await namesItem.getValue()).toEqual([]);
    await fakeBrowser.storage.local.set({ names: [1, 2] });
    expect(await namesItem.getValue()).toEqual([]);
  });

  it('keeps its area: the same name in storage.session is another item', async () => {
    const sessionItem = defineAreaItem({ area: 'session', key: 'session:names' }, [] as string[], isNames);
    await sessionItem.setValue(['s']);
    expect(await namesItem.getValue()).toEqual([]);
    expect(await sessionItem.getValue()).toEqual(['s']);
  });

  it('watches its own key and area only, until unwatched', async () => {
    const seen = vi.fn();
    const unwatch = namesItem.watch(seen);
    await fakeBrowser.storage.session.set({ names: ['other area'] });
    await fakeBrowser.storage.local.set({ other: ['other key'] });
    await namesItem.setValue(['x']);
    await fakeBrowser.storage.local.set({ names: 'tampered' });
    await fakeBrowser.storage.local.remove('names');
    expect(seen.mock.calls).toEqual([[['x']], [[]], [[]]]);
    unwatch();
    await namesItem.setValue(['y']);
    expect(seen).toHaveBeenCalledTimes(3);
  });
});
