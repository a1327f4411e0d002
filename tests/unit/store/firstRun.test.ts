import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { clearState } from '@/lib/store/state';

/**
 * The store build has no default service (issue 22, point 6): a fresh install opens the first-run
 * setup and sends nothing until a service is saved. Modules are loaded in store mode per test.
 */
async function inStoreMode() {
  vi.stubEnv('MODE', 'store');
  vi.resetModules();
  return {
    settings: await import('@/lib/store/settings'),
    origins: await import('@/lib/contract/origins'),
    navigation: await import('@/lib/pages/navigation'),
    service: await import('@/lib/api/service'),
    events: await import('@/lib/events'),
  };
}

let fetchSpy: ReturnType<typeof vi.fn>;

beforeEach(async () => {
  await clearState();
  fetchSpy = vi.fn(() => Promise.resolve(new Response('{}', { status: 200 })));
  vi.stubGlobal('fetch', fetchSpy);
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('a fresh store install', () => {
  it('has no service, and says nothing is insecure about it', async () => {
    const { settings, origins } = await inStoreMode();
    const fresh = await settings.getSettings();
    expect(settings.isServiceConfigured(fresh)).toBe(false);
    expect(origins.insecureSettingsUrls(fresh)).toEqual([]);
    expect(origins.serviceOrigins(fresh)).toEqual([]);
  });

  it('sends nothing until a service is saved: no API call, no event poll', async () => {
    const { service, events, settings } = await inStoreMode();
    expect(settings.isServiceConfigured(await settings.getSettings())).toBe(false);
    await service
      .serviceClient()
      .then((client) => client.call('getStatus'))
      .catch(() => undefined);
    await events.pollEvents().catch(() => undefined);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('opens the first-run setup on install, and not on an update or once a service is saved', async () => {
    const { navigation, settings } = await inStoreMode();
    const open = vi.fn(() => Promise.resolve());
    browser.runtime.openOptionsPage = open;
    expect(await navigation.openFirstRunSetup('update')).toBe(false);
    expect(await navigation.openFirstRunSetup('install')).toBe(true);
    expect(open).toHaveBeenCalledTimes(1);
    await settings.saveSettings({
      serviceUrl: 'https://agent.example',
      apiUrl: 'https://agent.example/api/v1',
    });
    expect(await navigation.openFirstRunSetup('install')).toBe(false);
    expect(open).toHaveBeenCalledTimes(1);
  });
});
