// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { DISMISSED_SITES_KEY, dismiss, isDismissed } from '@/lib/pages/offer/dismissals';
import { drawOffer, OFFER_HOST, shouldOffer, watchAddress } from '@/lib/pages/offer/offer';
import type { ExtensionApi } from '@/lib/pages/offer/runtime';
import { STORAGE_ITEMS } from '@/lib/store/inventory';

const api = fakeBrowser as unknown as ExtensionApi;

afterEach(() => {
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

describe('where the offer appears', () => {
  it('offers in the top frame of an http(s) page', () => {
    location.href = 'https://finance.example/quote/AAPL';
    expect(shouldOffer()).toBe(true);
  });

  it.each(['file:///home/me/notes.html', 'about:blank'])('never on %s', (url) => {
    location.href = url;
    expect(location.href.startsWith('http')).toBe(false);
    expect(shouldOffer()).toBe(false);
  });
});

describe('the offer as the page sees it', () => {
  it('is one empty host, the same on every page, and posts nothing to the page', () => {
    const posted = vi.spyOn(window, 'postMessage');
    const dispatched = vi.spyOn(document, 'dispatchEvent');
    location.href = 'https://finance.example/quote/AAPL';
    const host = drawOffer(api, { css: '', words: {} });
    expect(document.body.lastElementChild).toBe(host);
    expect(host.tagName.toLowerCase()).toBe(OFFER_HOST);
    // Closed: the page gets no shadow root to read.
    expect(host.shadowRoot).toBeNull();
    expect(host.childNodes).toHaveLength(0);
    expect(posted).not.toHaveBeenCalled();
    expect(dispatched).not.toHaveBeenCalled();
  });

  it('watches its visibility only once the pointer comes to it, not while the page is only read', () => {
    const observed: Element[] = [];
    class FakeObserver {
      observe(target: Element) {
        observed.push(target);
      }
      disconnect() {}
    }
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    try {
      const host = drawOffer(api, { css: '', words: {} });
      expect(observed).toHaveLength(0);
      host.dispatchEvent(new Event('pointerover'));
      host.dispatchEvent(new Event('pointerover'));
      expect(observed).toHaveLength(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('follows only trusted address changes: an event the page dispatches itself is ignored', () => {
    const navigation = new EventTarget();
    (globalThis as { navigation?: EventTarget }).navigation = navigation;
    try {
      const changed = vi.fn();
      watchAddress(changed);
      navigation.dispatchEvent(new Event('currententrychange'));
      expect(changed).not.toHaveBeenCalled();
    } finally {
      delete (globalThis as { navigation?: EventTarget }).navigation;
    }
  });
});

describe('dismissals', () => {
  it('are remembered per site', async () => {
    expect(await isDismissed(api, 'finance.example')).toBe(false);
    await dismiss(api, 'finance.example');
    await dismiss(api, 'finance.example');
    expect(await isDismissed(api, 'finance.example')).toBe(true);
    expect(await isDismissed(api, 'other.example')).toBe(false);
  });

  it("are kept under the inventory's storage item, read without WXT's wrapper", () => {
    expect(STORAGE_ITEMS.dismissedSites.key).toBe(`local:${DISMISSED_SITES_KEY}`);
  });
});
