import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { HandlerRegistry } from '@/lib/messaging';
import { keyFingerprint } from '@/lib/store/apiKey';
import { DEFAULT_SETTINGS, getSettings, saveSettings } from '@/lib/store/settings';
import {
  readPopupSnapshot,
  snapshotBinding,
  snapshotGeneration,
  writePopupSnapshot,
  type PopupSnapshot,
} from '@/lib/store/snapshot';
import { OPTIONS_PAGE, workerRegistry } from './registry';

/** A busy machine may take seconds to run a read; vi.waitFor's default is one second. */
const WAIT = { timeout: 15_000, interval: 20 };

const snapshot: PopupSnapshot = {
  binding: 'old',
  state: {
    version: '1.2.3',
    settings: { ...DEFAULT_SETTINGS },
    key: { set: true, savedAt: Date.UTC(2026, 10, 2, 9, 30) },
    hostAccess: { missingOrigins: [] },
  },
  page: { items: [], nextCursor: null, hasMore: false, source: 'network', fetchedAt: 1 },
  outbox: [],
  savedAt: 1,
};

let registry: HandlerRegistry;

beforeEach(async () => {
  vi.restoreAllMocks();
  await saveSettings(DEFAULT_SETTINGS);
  const worker = workerRegistry();
  registry = worker.registry;
  await writePopupSnapshot(snapshot, snapshotGeneration());
  return worker.restoreLog;
});

/** The snapshot now: none, or one read for the service and key saved now. */
async function currentOrNone(): Promise<void> {
  const saved = await readPopupSnapshot();
  if (!saved) return;
  const { serviceUrl } = await getSettings();
  expect(saved.binding).toBe(snapshotBinding(serviceUrl, await keyFingerprint()));
}

describe("the popup's snapshot goes with the key or the service", () => {
  it('is cleared when a key is saved, and read again at once for the new key', async () => {
    const answer = await registry.dispatch(
      { type: 'saveApiKey', payload: { key: 'sk_live_new_key_1234' } },
      OPTIONS_PAGE,
    );
    expect(answer).toMatchObject({ ok: true });
    await currentOrNone();
    // Save starts the read the next popup paints from (here the service is unreachable: no page).
    await vi.waitFor(async () => expect(await readPopupSnapshot()).toBeDefined());
    await currentOrNone();
  });

  it('is cleared when the key is removed', async () => {
    await registry.dispatch({ type: 'removeApiKey', payload: {} }, OPTIONS_PAGE);
    await currentOrNone();
    expect((await readPopupSnapshot())?.state.key.set).not.toBe(true);
  });

  it('a read under way when the key changes is never saved for the old key', async () => {
    const held: (() => void)[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(
      () => new Promise<Response>((_, reject) => held.push(() => reject(new TypeError('offline')))),
    );
    // The read Save starts for a first key, and a popup opened meanwhile joining it.
    await registry.dispatch({ type: 'saveApiKey', payload: { key: 'sk_live_first_key_5678' } }, OPTIONS_PAGE);
    const before = registry.dispatch({ type: 'openPopup', payload: {} }, OPTIONS_PAGE);
    await vi.waitFor(() => expect(held.length).toBeGreaterThan(0), WAIT);
    const startedBefore = held.length;
    await registry.dispatch({ type: 'saveApiKey', payload: { key: 'sk_live_new_key_1234' } }, OPTIONS_PAGE);
    // The read started by Save finishes first and is saved; then the one from before the Save. Each of
    // the Save read's requests is answered as it comes (it makes several, one after another), while
    // the earlier read's stay held.
    await vi.waitFor(async () => {
      for (const release of held.splice(startedBefore)) release();
      expect(await readPopupSnapshot()).toBeDefined();
    }, WAIT);
    const release = setInterval(() => held.splice(0).forEach((reject) => reject()), 5);
    onTestFinished(() => clearInterval(release));
    await before;
    await currentOrNone();
    expect((await readPopupSnapshot())?.state.key.set).toBe(true);
  });

  it('is cleared when the service moves, and kept when nothing that binds it changed', async () => {
    const same = {
      serviceUrl: DEFAULT_SETTINGS.serviceUrl,
      apiUrl: DEFAULT_SETTINGS.apiUrl,
      pollMinutes: 15,
    };
    await registry.dispatch({ type: 'saveSettings', payload: same }, OPTIONS_PAGE);
    expect(await readPopupSnapshot()).toEqual({ ...snapshot, page: { ...snapshot.page, source: 'cache' } });
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('offline'));
    await registry.dispatch(
      {
        type: 'saveSettings',
        payload: { serviceUrl: 'http://localhost:8787', apiUrl: 'http://localhost:8787/api/v1' },
      },
      OPTIONS_PAGE,
    );
    expect((await readPopupSnapshot())?.binding).not.toBe('old');
    await currentOrNone();
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
