import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { setLogSink } from '@/lib/log';
import { createHandlerRegistry, type HandlerRegistry } from '@/lib/messaging';
import { registerHandlers } from '@/lib/background/handlers';
import { DEFAULT_SETTINGS, saveSettings } from '@/lib/store/settings';
import { readPopupSnapshot, writePopupSnapshot, type PopupSnapshot } from '@/lib/store/snapshot';

const self = {
  extensionId: fakeBrowser.runtime.id,
  extensionOrigin: `chrome-extension://${fakeBrowser.runtime.id}`,
};
const OPTIONS_PAGE = { id: self.extensionId, origin: self.extensionOrigin };

const snapshot: PopupSnapshot = {
  binding: 'old',
  state: {
    version: '1.2.3',
    settings: { ...DEFAULT_SETTINGS },
    key: { set: true, last4: 'abcd' },
    hostAccess: { missingOrigins: [] },
  },
  page: { items: [], nextCursor: null, hasMore: false, source: 'network', fetchedAt: 1 },
  outbox: [],
  savedAt: 1,
};

let registry: HandlerRegistry;

beforeEach(async () => {
  await saveSettings(DEFAULT_SETTINGS);
  registry = createHandlerRegistry(self);
  registerHandlers(registry);
  vi.spyOn(fakeBrowser.runtime, 'getManifest').mockReturnValue({
    manifest_version: 3,
    name: 'x',
    version: '1.2.3',
  });
  vi.spyOn(fakeBrowser.permissions, 'contains').mockResolvedValue(true);
  await writePopupSnapshot(snapshot);
  return setLogSink(() => undefined);
});

describe("the popup's snapshot goes with the key or the service", () => {
  it('is cleared when a key is saved', async () => {
    const answer = await registry.dispatch(
      { type: 'saveApiKey', payload: { key: 'sk_live_new_key_1234' } },
      OPTIONS_PAGE,
    );
    expect(answer).toMatchObject({ ok: true });
    expect(await readPopupSnapshot()).toBeUndefined();
  });

  it('is cleared when the key is removed', async () => {
    await registry.dispatch({ type: 'removeApiKey', payload: {} }, OPTIONS_PAGE);
    expect(await readPopupSnapshot()).toBeUndefined();
  });

  it('is cleared when the service moves, and kept when nothing that binds it changed', async () => {
    const same = {
      serviceUrl: DEFAULT_SETTINGS.serviceUrl,
      apiUrl: DEFAULT_SETTINGS.apiUrl,
      pollMinutes: 15,
    };
    await registry.dispatch({ type: 'saveSettings', payload: same }, OPTIONS_PAGE);
    expect(await readPopupSnapshot()).toEqual(snapshot);
    await registry.dispatch(
      {
        type: 'saveSettings',
        payload: { serviceUrl: 'http://localhost:8787', apiUrl: 'http://localhost:8787/api/v1' },
      },
      OPTIONS_PAGE,
    );
    expect(await readPopupSnapshot()).toBeUndefined();
  });

  it('openPopup drops a snapshot read for another key before saving its own', async () => {
    const answer = await registry.dispatch({ type: 'openPopup', payload: {} }, OPTIONS_PAGE);
    expect(answer).toMatchObject({
      ok: true,
      value: { binding: expect.stringContaining(DEFAULT_SETTINGS.serviceUrl) },
    });
    const saved = await readPopupSnapshot();
    expect(saved?.binding).not.toBe('old');
    // No key here: no first page is read or kept.
    expect(saved?.page).toBeUndefined();
  });
});
