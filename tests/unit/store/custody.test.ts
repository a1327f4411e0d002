import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { apiKeyState, keyFingerprint, loadApiKey, removeApiKey, storeApiKey } from '@/lib/store/apiKey';
import { DEFAULT_SETTINGS, getSettings, saveSettings } from '@/lib/store/settings';

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
    expect(await apiKeyState()).toEqual({ set: true, last4: KEY.slice(-4) });
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
