import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
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
