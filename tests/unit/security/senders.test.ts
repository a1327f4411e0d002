import { beforeEach, describe, expect, it } from 'vitest';
import { setLogSink } from '@/lib/log';
import { createHandlerRegistry, type HandlerRegistry } from '@/lib/messaging';
import { messages, type MessageName } from '@/lib/messaging/protocol';

/** Every privileged message, refused for every sender that may not send it, before any handler runs. */
const self = { extensionId: 'ext', extensionOrigin: 'chrome-extension://ext' };
const SENDERS = {
  'content script (top frame)': {
    id: 'ext',
    tab: { id: 7 },
    frameId: 0,
    origin: 'https://finance.yahoo.com',
  },
  'content script (sub-frame)': { id: 'ext', tab: { id: 7 }, frameId: 3, origin: 'https://ads.example' },
  'page claiming an extension URL': {
    id: 'ext',
    tab: { id: 7 },
    frameId: 0,
    origin: 'https://evil.example',
    url: 'chrome-extension://ext/options.html',
  },
  'another extension': { id: 'other', url: 'chrome-extension://other/page.html' },
  'our id alone, no tab, no origin': { id: 'ext' },
  'our id, no tab, a web origin': { id: 'ext', origin: 'https://evil.example', url: 'https://evil.example/' },
  'no sender': undefined,
} as const;

/** Our own popup or side panel: no tab, the extension's origin set by the browser. */
const OUR_PAGE = { id: 'ext', origin: 'chrome-extension://ext' };

const names = Object.keys(messages) as MessageName[];
const privileged = names.filter(
  (name) => !(messages[name].senders as readonly string[]).includes('content-script'),
);

let registry: HandlerRegistry;
let called: string[];

beforeEach(() => {
  called = [];
  registry = createHandlerRegistry(self);
  for (const name of names)
    registry.register(name, () => {
      called.push(name);
      return undefined as never;
    });
  return setLogSink(() => undefined);
});

describe('privileged messages from anything but an extension page', () => {
  it('covers every message the map declares for extension pages only', () => {
    expect(privileged.length).toBe(names.length - 2);
    expect(names.filter((name) => !privileged.includes(name))).toEqual([
      'submitPageDraft',
      'countPageMatches',
    ]);
  });

  const cases = Object.entries(SENDERS).flatMap(([label, sender]) =>
    privileged.map((name) => [label, name, sender] as const),
  );
  it.each(cases)('%s → %s is refused and no handler runs', async (_label, name, sender) => {
    const answer = await registry.dispatch({ type: name, payload: {} }, sender);
    expect(answer).toEqual({ ok: false, error: expect.objectContaining({ code: 'sender-not-allowed' }) });
    expect(called).toEqual([]);
  });
});

describe('the content script message', () => {
  it.each([
    ['a sub-frame', SENDERS['content script (sub-frame)']],
    ['another extension', SENDERS['another extension']],
    ['no sender', undefined],
  ])('submitPageDraft and countPageMatches from %s are refused', async (_label, sender) => {
    const answer = await registry.dispatch({ type: 'submitPageDraft', payload: { draft: {} } }, sender);
    expect(
      await registry.dispatch({ type: 'countPageMatches', payload: { tickers: ['AAPL'] } }, sender),
    ).toMatchObject({ ok: false, error: { code: 'sender-not-allowed' } });
    expect(answer).toMatchObject({ ok: false, error: { code: 'sender-not-allowed' } });
    expect(called).toEqual([]);
  });

  it('reaches its handler from a top-frame content script (the positive control)', async () => {
    const answer = await registry.dispatch(
      { type: 'submitPageDraft', payload: { draft: {} } },
      SENDERS['content script (top frame)'],
    );
    expect(answer.ok).toBe(true);
    expect(called).toEqual(['submitPageDraft']);
  });
});

describe('envelopes that try to smuggle something', () => {
  it.each([
    ['a prototype name', { type: '__proto__', payload: {} }],
    ['constructor', { type: 'constructor', payload: {} }],
    ['an extra envelope field', { type: 'getState', payload: {}, sender: 'extension-page' }],
    ['a non-object', 'getState'],
    ['an overlong name', { type: 'x'.repeat(65), payload: {} }],
  ])('%s is dropped with a typed error', async (_label, raw) => {
    const answer = await registry.dispatch(raw, OUR_PAGE);
    expect(answer.ok).toBe(false);
    expect(called).toEqual([]);
  });

  it('an extra payload field is refused by the strict schema', async () => {
    const answer = await registry.dispatch(
      { type: 'saveApiKey', payload: { key: 'pbk_valid_key_123', origin: 'chrome-extension://ext' } },
      OUR_PAGE,
    );
    expect(answer).toMatchObject({ ok: false, error: { code: 'malformed-message' } });
    expect(called).toEqual([]);
  });
});
