import { storage } from 'wxt/utils/storage';
import { STORAGE_ITEMS } from '@/lib/store/inventory';

/** Sites where the user hid the offer. Not secret, so content scripts may read it. */
const dismissedSites = storage.defineItem<string[]>(STORAGE_ITEMS.dismissedSites.key, { fallback: [] });

export async function isDismissed(host: string): Promise<boolean> {
  return (await dismissedSites.getValue()).includes(host);
}

export async function dismiss(host: string): Promise<void> {
  const hosts = await dismissedSites.getValue();
  if (!hosts.includes(host)) await dismissedSites.setValue([...hosts, host].slice(-500));
}
