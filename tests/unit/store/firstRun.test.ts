import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { database } from '@/lib/store/db';
import { clearState } from '@/lib/store/state';

/**
 * The store build has no default service: a fresh install opens the first-run
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
    state: await import('@/lib/background/state'),
    errors: await import('@/lib/background/errors'),
    protocol: await import('@/lib/messaging/protocol'),
    handlers: await import('@/lib/background/handlers'),
  };
}

let fetchSpy: ReturnType<typeof vi.fn>;

beforeEach(async () => {
  await clearState();
  // A fresh install: no service saved by an earlier test.
  await (await database()).delete('settings', 'settings');
  fetchSpy = vi.fn(() => Promise.resolve(new Response('{}', { status: 200 })));
  vi.stubGlobal('fetch', fetchSpy);
});

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// Each test loads the modules again in store mode: the first pays for their transform, seconds on a busy
// 2-core machine, so the limit is far above it; the tests themselves take milliseconds.
describe('a fresh store install', { timeout: 30_000 }, () => {
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

  it('opens the welcome on install, and not on an update or once a service and a key are saved', async () => {
    const { navigation, settings } = await inStoreMode();
    const { storeApiKey, removeApiKey } = await import('@/lib/store/apiKey');
    await removeApiKey();
    const open = vi.spyOn(browser.tabs, 'create').mockResolvedValue({} as never);
    expect(await navigation.openFirstRunSetup('update')).toBe(false);
    expect(await navigation.openFirstRunSetup('install')).toBe(true);
    expect(open).toHaveBeenCalledTimes(1);
    expect(open.mock.calls[0]?.[0].url).toMatch(/\/options\.html\?welcome$/);
    await settings.saveSettings({
      serviceUrl: 'https://agent.example',
      apiUrl: 'https://agent.example/api/v1',
    });
    // A service without a key still needs the welcome: the key is the other half.
    expect(await navigation.openFirstRunSetup('install')).toBe(true);
    await storeApiKey('pbk_live_0123456789abcdef');
    expect(await navigation.openFirstRunSetup('install')).toBe(false);
    expect(open).toHaveBeenCalledTimes(2);
    await removeApiKey();
  });

  it('is a typed state of the worker, not an error text: AppState says so until a service is saved', async () => {
    const { state, settings } = await inStoreMode();
    browser.runtime.getManifest = () => ({ manifest_version: 3, name: 'test', version: '0.1.0' });
    browser.permissions.contains = vi.fn(() => Promise.resolve(true));
    expect((await state.readAppState()).serviceSetup).toBe('needed');
    await settings.saveSettings({
      serviceUrl: 'https://agent.example',
      apiUrl: 'https://agent.example/api/v1',
    });
    expect((await state.readAppState()).serviceSetup).toBeUndefined();
  });

  it('the one client factory and discovery refuse with the not-configured code, sending nothing', async () => {
    const { service, origins, errors, protocol } = await inStoreMode();
    const refusal = await service.serviceClient().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(origins.ServiceNotConfiguredError);
    expect(errors.wireErrorOf(refusal)?.code).toBe(protocol.NOT_CONFIGURED_CODE);
    await expect(service.discover()).rejects.toBeInstanceOf(origins.ServiceNotConfiguredError);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('an open events port starts no stream: no retry loop against a service that is not there', async () => {
    const { events } = await inStoreMode();
    const postMessage = vi.fn();
    const port = { postMessage } as unknown as Parameters<typeof events.acceptEventsPort>[0];
    events.acceptEventsPort(port);
    try {
      await vi.waitFor(async () => expect((await events.eventFeed()).streaming).toBe(false));
    } finally {
      events.dropEventsPort(port);
    }
    expect(postMessage).not.toHaveBeenCalled();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('"Test connection" before the setup says the service is not set up, rather than an empty success', async () => {
    const { handlers, origins } = await inStoreMode();
    const test = handlers.handlerTable().testConnection;
    await expect(test({}, { kind: 'extension-page' } as never)).rejects.toBeInstanceOf(
      origins.ServiceNotConfiguredError,
    );
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
