// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { answerPageAddress, PAGE_ADDRESS_QUERY } from '@/lib/messaging/pageAddress';

const ours = { id: fakeBrowser.runtime.id };

describe('the content script answers which page it shows', () => {
  beforeEach(() => fakeBrowser.reset());

  it('answers the worker the page address, and only that query', async () => {
    const remove = answerPageAddress();
    expect(await fakeBrowser.runtime.onMessage.trigger(PAGE_ADDRESS_QUERY, ours)).toEqual([
      { url: location.href },
    ]);
    // Anything else is left to other listeners (none answers here), never answered with the address.
    for (const other of [{ type: 'reportPageTickers' }, 'pageAddress', null, { kind: 'pageAddress' }])
      expect(await fakeBrowser.runtime.onMessage.trigger(other, ours)).toEqual([undefined]);
    remove();
    expect(await fakeBrowser.runtime.onMessage.trigger(PAGE_ADDRESS_QUERY, ours)).toEqual([]);
  });

  it('says nothing to a sender that is not this extension', async () => {
    answerPageAddress();
    for (const sender of [{ id: 'another-extension' }, {}])
      expect(await fakeBrowser.runtime.onMessage.trigger(PAGE_ADDRESS_QUERY, sender)).toEqual([undefined]);
  });
});
