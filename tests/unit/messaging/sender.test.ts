import { describe, expect, it } from 'vitest';
import { classifyPort, classifySender } from '@/lib/messaging/sender';

const self = { extensionId: 'abcdefghijklmnop', extensionOrigin: 'chrome-extension://abcdefghijklmnop' };
const tab = { id: 7 } as never;

describe('classifySender', () => {
  it.each([
    ['no sender at all', undefined, 'foreign'],
    ['another extension', { id: 'zzzz' }, 'foreign'],
    ['an id that only looks like ours', { id: `${self.extensionId} ` }, 'foreign'],
    ['a missing id', { url: self.extensionOrigin }, 'foreign'],
    [
      'our popup or side panel (no tab), Chrome',
      { id: self.extensionId, origin: self.extensionOrigin, url: `${self.extensionOrigin}/popup.html` },
      'extension-page',
    ],
    [
      'our popup or side panel (no tab), Firefox (url only)',
      { id: self.extensionId, url: `${self.extensionOrigin}/popup.html` },
      'extension-page',
    ],
    ['our id alone, with no tab and no origin', { id: self.extensionId }, 'foreign'],
    [
      'no tab, a web origin',
      { id: self.extensionId, origin: 'https://evil.example', url: 'https://evil.example/' },
      'foreign',
    ],
    [
      'no tab, another extension origin',
      { id: self.extensionId, url: 'chrome-extension://zzzz/popup.html' },
      'foreign',
    ],
    [
      'no tab, our origin named only in a path',
      { id: self.extensionId, url: `https://evil.example/${self.extensionOrigin}` },
      'foreign',
    ],
    [
      'no tab, a Firefox moz-extension page of ours',
      { id: self.extensionId, url: 'moz-extension://abcdefghijklmnop/sidepanel.html' },
      'foreign',
    ],
    [
      'our page opened in a tab',
      { id: self.extensionId, tab, frameId: 0, origin: self.extensionOrigin },
      'extension-page',
    ],
    [
      'our page in a tab, Firefox (url only)',
      { id: self.extensionId, tab, frameId: 0, url: `${self.extensionOrigin}/confirm.html` },
      'extension-page',
    ],
    [
      'a content script in the top frame',
      {
        id: self.extensionId,
        tab,
        frameId: 0,
        origin: 'https://finance.yahoo.com',
        url: 'https://finance.yahoo.com/quote/AAPL',
      },
      'content-script',
    ],
    [
      'a content script whose page path names our origin',
      {
        id: self.extensionId,
        tab,
        frameId: 0,
        origin: 'https://evil.example',
        url: `https://evil.example/${self.extensionOrigin}`,
      },
      'content-script',
    ],
    [
      'a content script on a page with an unparsable url',
      { id: self.extensionId, tab, frameId: 0, url: 'not a url' },
      'content-script',
    ],
    [
      'a tab with no id',
      { id: self.extensionId, tab: {}, frameId: 0, origin: 'https://x.example' },
      'foreign',
    ],
  ])('%s → %s', (_name, sender, kind) => {
    expect(classifySender(sender as never, self).kind).toBe(kind);
  });

  it('accepts our Firefox pages when the origin is moz-extension', () => {
    const firefox = { extensionId: 'ff-id', extensionOrigin: 'moz-extension://0a1b2c3d-uuid' };
    const sidebar = { id: 'ff-id', url: 'moz-extension://0a1b2c3d-uuid/sidepanel.html' };
    expect(classifySender(sidebar, firefox).kind).toBe('extension-page');
    expect(classifySender({ id: 'ff-id', url: 'moz-extension://other-uuid/x.html' }, firefox).kind).toBe(
      'foreign',
    );
  });

  it('classifies a port by the sender the browser set on it', () => {
    expect(classifyPort({ sender: { id: self.extensionId, origin: self.extensionOrigin } }, self).kind).toBe(
      'extension-page',
    );
    expect(classifyPort({ sender: { id: self.extensionId } }, self).kind).toBe('foreign');
    expect(classifyPort({ sender: undefined }, self).kind).toBe('foreign');
    expect(
      classifyPort(
        { sender: { id: self.extensionId, tab, frameId: 0, origin: 'https://finance.yahoo.com' } },
        self,
      ).kind,
    ).toBe('content-script');
  });

  it('tells the top frame from sub-frames', () => {
    const top = classifySender({ id: self.extensionId, tab, frameId: 0, origin: 'https://a.example' }, self);
    const sub = classifySender(
      { id: self.extensionId, tab, frameId: 3, origin: 'https://ads.example' },
      self,
    );
    expect(top).toMatchObject({ kind: 'content-script', topFrame: true, tabId: 7 });
    expect(sub).toMatchObject({ kind: 'content-script', topFrame: false, frameId: 3 });
  });

  it('takes a prerendered page, once shown, for the top frame it is (w3c/webextensions#396)', () => {
    const url = 'https://finance.example/quote/NVDA';
    const shown = { id: self.extensionId, frameId: 697, url, origin: 'https://finance.example' };
    const inTab = { id: 7, url } as never;
    expect(classifySender({ ...shown, documentLifecycle: 'active', tab: inTab }, self)).toMatchObject({
      topFrame: true,
    });
    // Still prerendering (the tab shows another page), or a frame at another address: not the top frame.
    expect(
      classifySender(
        { ...shown, documentLifecycle: 'prerender', tab: { id: 7, url: 'chrome://newtab/' } as never },
        self,
      ),
    ).toMatchObject({ topFrame: false });
    expect(
      classifySender(
        { ...shown, url: 'https://ads.example/', documentLifecycle: 'active', tab: inTab },
        self,
      ),
    ).toMatchObject({ topFrame: false });
  });
});
