import type { ExtensionApi } from './runtime';

/**
 * Sites where the user hid the offer. Not secret, so content scripts may read it. The
 * `storage.local` name of STORAGE_ITEMS.dismissedSites (WXT's `local:` area prefix dropped), read
 * without WXT's storage wrapper to keep the content script small; a unit test checks they agree.
 */
export const DISMISSED_SITES_KEY = 'dismissedSites';

async function dismissedSites(api: ExtensionApi): Promise<string[]> {
  const value = (await api.storage.local.get(DISMISSED_SITES_KEY))[DISMISSED_SITES_KEY];
  return Array.isArray(value) ? value.filter((host): host is string => typeof host === 'string') : [];
}

export async function isDismissed(api: ExtensionApi, host: string): Promise<boolean> {
  return (await dismissedSites(api)).includes(host);
}

export async function dismiss(api: ExtensionApi, host: string): Promise<void> {
  const hosts = await dismissedSites(api);
  if (!hosts.includes(host))
    await api.storage.local.set({ [DISMISSED_SITES_KEY]: [...hosts, host].slice(-500) });
}
