import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { MatchPattern } from 'wxt/utils/match-patterns';
import { registerSiteHandlers } from '@/lib/background/sites';
import { createHandlerRegistry, type HandlerRegistry } from '@/lib/messaging';
import { DEFAULT_SETTINGS, saveSettings } from '@/lib/store/settings';

const EXTENSION_PAGE = { id: fakeBrowser.runtime.id, origin: `chrome-extension://${fakeBrowser.runtime.id}` };
let registry: HandlerRegistry;
let removed: string[];

async function value(type: string, payload: unknown): Promise<unknown> {
  const answer = await registry.dispatch({ type, payload }, EXTENSION_PAGE);
  if (!answer.ok) throw new Error(`${type}: ${answer.error.code} ${answer.error.message}`);
  return answer.value;
}

beforeEach(async () => {
  removed = [];
  await saveSettings({
    ...DEFAULT_SETTINGS,
    serviceUrl: 'https://agent.example.com',
    apiUrl: 'https://api.example.com:8443/v1',
  });
  fakeBrowser.permissions.contains = vi.fn(() => Promise.resolve(true));
  fakeBrowser.permissions.remove = vi.fn(({ origins = [] }: { origins?: string[] }) => {
    removed.push(...origins);
    return Promise.resolve(true);
  });
  fakeBrowser.scripting.getRegisteredContentScripts = vi.fn(() => Promise.resolve([]));
  fakeBrowser.scripting.unregisterContentScripts = vi.fn(() => Promise.resolve());
  fakeBrowser.scripting.registerContentScripts = vi.fn(() => Promise.resolve());
  registry = createHandlerRegistry({
    extensionId: fakeBrowser.runtime.id,
    extensionOrigin: `chrome-extension://${fakeBrowser.runtime.id}`,
  });
  registerSiteHandlers(registry);
});

describe('removeSite', () => {
  it('revokes the access of a site that is nothing else', async () => {
    await value('addSite', { site: 'www.marketnotes.example' });
    expect(await value('removeSite', { site: 'https://www.marketnotes.example/*' })).toEqual({ extra: [] });
    expect(removed).toEqual(['https://www.marketnotes.example/*']);
  });

  it('keeps the access of the configured API origin when a site pattern covers it', async () => {
    await value('addSite', { site: '*.example.com' });
    expect(await value('removeSite', { site: 'https://*.example.com/*' })).toEqual({ extra: [] });
    expect(removed).toEqual([]);
  });

  it('keeps the access of the configured service origin named exactly', async () => {
    await value('addSite', { site: 'agent.example.com' });
    await value('removeSite', { site: 'https://agent.example.com/*' });
    expect(removed).toEqual([]);
  });

  it('revokes nothing for a site that was never listed', async () => {
    expect(await value('removeSite', { site: 'not a pattern' })).toEqual({ extra: [] });
    expect(await value('removeSite', { site: 'https://bank.example/*' })).toEqual({ extra: [] });
    expect(removed).toEqual([]);
  });
});

/**
 * The worker decides "this site's grant also reaches the service" with lib/finance's matcher, not
 * a second match-pattern library: for every pattern addSite can list, it must answer as the
 * browser's match patterns do (the library kept here as the reference, test-only).
 */
describe('removeSite keeps a grant exactly when a browser match pattern covers a service origin', () => {
  const typed = [
    'example.com',
    '*.example.com',
    'http://127.0.0.1',
    '*://localhost',
    'https://[::1]',
    'api.example.com.evil.test',
    'sub.api.example.com',
  ];
  const services = [
    'https://api.example.com:8443/v1',
    'http://127.0.0.1:8787',
    'http://localhost:3000',
    'https://[::1]:8443',
    'https://example.com',
  ];

  it.each(services)('service %s', async (serviceUrl) => {
    await saveSettings({ ...DEFAULT_SETTINGS, serviceUrl, apiUrl: serviceUrl });
    for (const site of typed) {
      await value('addSite', { site });
      const pattern = ((await value('listSites', {})) as { extra: string[] }).extra.at(-1)!;
      removed = [];
      await value('removeSite', { site: pattern });
      let covers: boolean;
      try {
        covers = new MatchPattern(pattern).includes(`${new URL(serviceUrl).origin}/`);
      } catch {
        covers = false;
      }
      expect({ pattern, revoked: removed.length > 0 }).toEqual({ pattern, revoked: !covers });
    }
  });
});
