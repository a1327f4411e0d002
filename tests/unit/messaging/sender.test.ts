import { describe, expect, it } from 'vitest';
import { classifySender } from '@/lib/messaging/sender';

const self = { extensionId: 'abcdefghijklmnop', extensionOrigin: 'chrome-extension://abcdefghijklmnop' };
const tab = { id: 7 } as never;

describe('classifySender', () => {
  it.each([
    ['no sender at all', undefined, 'foreign'],
    ['another extension', { id: 'zzzz' }, 'foreign'],
    ['an id that only looks like ours', { id: `${self.extensionId} ` }, 'foreign'],
    ['a missing id', { url: self.extensionOrigin }, 'foreign'],
    ['our popup or side panel (no tab)', { id: self.extensionId }, 'extension-page'],
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

  it('tells the top frame from sub-frames', () => {
    const top = classifySender({ id: self.extensionId, tab, frameId: 0, origin: 'https://a.example' }, self);
    const sub = classifySender(
      { id: self.extensionId, tab, frameId: 3, origin: 'https://ads.example' },
      self,
    );
    expect(top).toMatchObject({ kind: 'content-script', topFrame: true, tabId: 7 });
    expect(sub).toMatchObject({ kind: 'content-script', topFrame: false, frameId: 3 });
  });
});
