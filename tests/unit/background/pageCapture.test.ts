import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { captureArticleDraft } from '@/lib/background/pageCapture';
import { setLogSink } from '@/lib/log';

const draft = {
  title: 'NVDA — Nvidia rallies',
  thesis: 'Nvidia rallies\n\nThe lead.',
  tickers: ['NVDA'],
  visibility: 'private',
  source: { url: 'https://news.example/nvda', title: 'Nvidia rallies', excerpt: 'The lead.' },
};

type Scripting = { executeScript: (injection: unknown) => Promise<{ result?: unknown }[]> };
let injections: unknown[];

function scripting(answer: (call: number) => Promise<{ result?: unknown }[]>): void {
  injections = [];
  (fakeBrowser as unknown as { scripting: Scripting }).scripting = {
    executeScript: (injection) => {
      injections.push(injection);
      return answer(injections.length);
    },
  };
}

beforeEach(() => setLogSink(() => undefined));
afterEach(() => vi.restoreAllMocks());

describe('captureArticleDraft', () => {
  it('injects the extractor into the top frame of the tab (no frame id: a prerendered page keeps another), then calls it with the selection', async () => {
    scripting((call) => Promise.resolve(call === 1 ? [{}] : [{ result: draft }]));
    expect(await captureArticleDraft(12, 'picked text')).toEqual(draft);
    expect(injections).toEqual([
      { target: { tabId: 12 }, files: ['/article-capture.js'] },
      expect.objectContaining({
        target: { tabId: 12 },
        args: [expect.any(String), 'picked text'],
      }),
    ]);
  });

  it('gives up (the caller keeps its own draft) when injection fails or the answer is not a draft', async () => {
    scripting(() => Promise.reject(new Error('Cannot access contents of the page')));
    expect(await captureArticleDraft(12, '')).toBeUndefined();
    scripting((call) =>
      Promise.resolve(call === 1 ? [{}] : [{ result: { ...draft, visibility: 'public' } }]),
    );
    expect(await captureArticleDraft(12, '')).toBeUndefined();
    scripting((call) => Promise.resolve(call === 1 ? [{}] : [{ result: null }]));
    expect(await captureArticleDraft(12, '')).toBeUndefined();
  });
});
