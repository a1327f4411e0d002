import { beforeEach, describe, expect, it } from 'vitest';
import { createHandlerRegistry, HandledError, type HandlerRegistry } from '@/lib/messaging';
import { setLogSink, type LogRecord } from '@/lib/log';

const self = { extensionId: 'ext', extensionOrigin: 'chrome-extension://ext' };
const tab = { id: 3 };
const page = { id: 'ext', origin: 'chrome-extension://ext' };
const topContent = { id: 'ext', tab, frameId: 0, origin: 'https://finance.yahoo.com' };
const subContent = { id: 'ext', tab, frameId: 2, origin: 'https://ads.example' };
const foreign = { id: 'other-extension' };

let registry: HandlerRegistry;
let calls: string[];

beforeEach(() => {
  calls = [];
  registry = createHandlerRegistry(self);
  registry.register('saveApiKey', ({ key }) => {
    calls.push('saveApiKey');
    return { set: key.trim().length > 0 };
  });
  registry.register('submitPageDraft', () => {
    calls.push('submitPageDraft');
    return { draftId: 'd1' };
  });
  registry.register('getState', () => {
    throw new Error('boom with sk_live_secret_value inside');
  });
  registry.register('removeApiKey', () => {
    throw new HandledError({ code: 'draft-not-found', message: 'No key is stored.' });
  });
});

describe('dispatch fails closed', () => {
  it.each([
    ['a non-object', 'hello', 'malformed-message'],
    ['null', null, 'malformed-message'],
    ['an array', [], 'malformed-message'],
    ['a missing type', { payload: {} }, 'malformed-message'],
    [
      'extra envelope keys',
      { type: 'saveApiKey', payload: { key: 'k'.repeat(12) }, from: 'options' },
      'malformed-message',
    ],
    ['an unknown name', { type: 'deleteEverything', payload: {} }, 'unknown-message'],
    ['a prototype name', { type: '__proto__', payload: {} }, 'unknown-message'],
    ['a toString name', { type: 'toString', payload: {} }, 'unknown-message'],
    ['a wrong payload type', { type: 'saveApiKey', payload: { key: 42 } }, 'malformed-message'],
    [
      'unknown payload fields',
      { type: 'saveApiKey', payload: { key: 'k'.repeat(12), admin: true } },
      'malformed-message',
    ],
    ['a key with spaces', { type: 'saveApiKey', payload: { key: 'abc def ghi jkl' } }, 'malformed-message'],
    ['an oversized key', { type: 'saveApiKey', payload: { key: 'k'.repeat(10_000) } }, 'malformed-message'],
  ])('drops %s', async (_name, message, code) => {
    const answer = await registry.dispatch(message, page);
    expect(answer).toMatchObject({ ok: false, error: { code } });
    expect(calls).toEqual([]);
  });

  it.each([
    ['a content script', topContent],
    ['a sub-frame', subContent],
    ['another extension', foreign],
    ['our id with no tab and no origin', { id: 'ext' }],
    ['our id with no tab and a web origin', { id: 'ext', origin: 'https://evil.example' }],
    ['no sender', undefined],
  ])('refuses a privileged message from %s', async (_name, sender) => {
    const answer = await registry.dispatch(
      { type: 'saveApiKey', payload: { key: 'sk_forged_key_123' } },
      sender,
    );
    expect(answer).toMatchObject({ ok: false, error: { code: 'sender-not-allowed' } });
    expect(calls).toEqual([]);
  });

  it.each([
    ['an extension page', page],
    ['a sub-frame', subContent],
    ['another extension', foreign],
  ])('refuses a page draft from %s', async (_name, sender) => {
    const answer = await registry.dispatch({ type: 'submitPageDraft', payload: { draft: {} } }, sender);
    expect(answer).toMatchObject({ ok: false, error: { code: 'sender-not-allowed' } });
    expect(calls).toEqual([]);
  });
});

describe('dispatch delivers what is allowed', () => {
  it('answers an extension page with the handler value', async () => {
    const answer = await registry.dispatch(
      { type: 'saveApiKey', payload: { key: ' sk_test_1234abcd ' } },
      page,
    );
    expect(answer).toEqual({ ok: true, value: { set: true } });
  });

  it('accepts a top-frame content script for a page draft', async () => {
    expect(
      await registry.dispatch({ type: 'submitPageDraft', payload: { draft: { title: 'x' } } }, topContent),
    ).toEqual({
      ok: true,
      value: { draftId: 'd1' },
    });
  });

  it('passes handled errors through and hides unexpected ones', async () => {
    const records: LogRecord[] = [];
    const restore = setLogSink((record) => records.push(record));
    try {
      expect(await registry.dispatch({ type: 'removeApiKey', payload: {} }, page)).toEqual({
        ok: false,
        error: { code: 'draft-not-found', message: 'No key is stored.' },
      });
      const hidden = await registry.dispatch({ type: 'getState', payload: {} }, page);
      expect(hidden).toMatchObject({ ok: false, error: { code: 'internal' } });
      expect(JSON.stringify(hidden)).not.toContain('sk_live_secret_value');
    } finally {
      restore();
    }
  });

  it('answers no-handler for a declared message nobody registered', async () => {
    expect(
      await registry.dispatch({ type: 'discardDraft', payload: { id: crypto.randomUUID() } }, page),
    ).toMatchObject({
      ok: false,
      error: { code: 'no-handler' },
    });
  });

  it('throws when a name is registered twice or is not in the map', () => {
    expect(() => registry.register('saveApiKey', () => ({ set: false }))).toThrow(/already registered/);
    expect(() => registry.register('nope' as never, () => undefined as never)).toThrow(/No message named/);
  });
});
