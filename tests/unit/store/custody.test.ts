import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { apiKeyState, keyFingerprint, loadApiKey, removeApiKey, storeApiKey } from '@/lib/store/apiKey';
import { DEFAULT_SETTINGS, getSettings, saveSettings } from '@/lib/store/settings';
import { SettingsChangedError } from '@/lib/contract/origins';
import { wireErrorOf } from '@/lib/background/errors';

const KEY = 'pbk_sentinel_custody_0123456789';

beforeEach(async () => {
  await removeApiKey();
  await saveSettings(DEFAULT_SETTINGS);
});

describe('settings are out of content scripts’ reach', () => {
  it('ignores an API URL written into storage.local, where content scripts can write', async () => {
    await fakeBrowser.storage.local.set({
      settings: { serviceUrl: 'https://evil.example', apiUrl: 'https://evil.example/api', pollMinutes: 1 },
    });
    expect(await getSettings()).toEqual(DEFAULT_SETTINGS);
  });

  it('keeps what the options page saved', async () => {
    await saveSettings({ serviceUrl: 'https://svc.example/', apiUrl: 'https://api.svc.example/v1/' });
    expect(await getSettings()).toMatchObject({
      serviceUrl: 'https://svc.example',
      apiUrl: 'https://api.svc.example/v1',
    });
  });
});

describe('a key is bound to the API origin it was saved for', () => {
  it('is not used once the API URL points at another origin, and is again when it points back', async () => {
    await storeApiKey(KEY);
    expect(await loadApiKey()).toBe(KEY);

    await saveSettings({ serviceUrl: 'https://other.example', apiUrl: 'https://other.example/api' });
    expect(await loadApiKey()).toBeUndefined();
    expect(await apiKeyState()).toEqual({ set: false });

    await saveSettings(DEFAULT_SETTINGS);
    expect(await apiKeyState()).toEqual({ set: true, savedAt: expect.any(Number) });
  });

  it('follows the origin, not the path: a new path prefix on the same origin keeps the key', async () => {
    await storeApiKey(KEY);
    await saveSettings({ apiUrl: `${new URL(DEFAULT_SETTINGS.apiUrl).origin}/api/v2` });
    expect(await loadApiKey()).toBe(KEY);
  });

  it('fingerprints the key without revealing it', async () => {
    await storeApiKey(KEY);
    const fingerprint = await keyFingerprint();
    expect(fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(KEY).not.toContain(fingerprint!);
    await storeApiKey(`${KEY}x`);
    expect(await keyFingerprint()).not.toBe(fingerprint);
  });
});

describe('pages learn that a key is stored and when, never a character of it', () => {
  it('describes a saved key by its save time only', async () => {
    const before = Date.now();
    const saved = await storeApiKey(KEY);
    expect(Object.keys(saved).sort()).toEqual(['savedAt', 'set']);
    expect(saved.savedAt).toBeGreaterThanOrEqual(before);
    expect(await apiKeyState()).toEqual(saved);
    // No text at all: a boolean and a number cannot carry a fragment of the key.
    expect(Object.values(saved).map((value) => typeof value)).toEqual(['boolean', 'number']);
  });
});

describe('a key is stored only for the API URL the page that sent it showed', () => {
  it('refuses, and stores nothing, when another window saved another API URL in between', async () => {
    await saveSettings({ serviceUrl: 'https://a.example', apiUrl: 'https://api.a.example/v1' });
    // The options page saved A; another window has since saved B.
    await saveSettings({ serviceUrl: 'https://b.example', apiUrl: 'https://api.b.example/v1' });
    await expect(storeApiKey(KEY, 'https://api.a.example/v1')).rejects.toBeInstanceOf(SettingsChangedError);
    expect(await apiKeyState()).toEqual({ set: false });
    await saveSettings({ serviceUrl: 'https://a.example', apiUrl: 'https://api.a.example/v1' });
    expect(await loadApiKey()).toBeUndefined();
  });

  it('tells the page why, in its words', () => {
    expect(wireErrorOf(new SettingsChangedError())).toEqual({
      code: 'settings.changed',
      message:
        'The API URL was changed in another window, so the key was not saved. Check the settings and save again.',
    });
  });

  it('stores it when the URL shown is the one saved (the path may differ, the origin may not)', async () => {
    await saveSettings({ serviceUrl: 'https://a.example', apiUrl: 'https://api.a.example/v1' });
    await storeApiKey(KEY, 'https://api.a.example/v1/');
    expect(await loadApiKey()).toBe(KEY);
  });
});
