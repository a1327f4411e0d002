import { createStore, del, get, set } from 'idb-keyval';
import { registerSecret } from '@/lib/log';
import type { KeyState } from '@/lib/messaging/protocol';

/**
 * The API key lives in IndexedDB of the extension's own origin. Content scripts run in the page's
 * origin and cannot open this database; `storage.*` areas are avoided on purpose (content scripts
 * can read `storage.local` unless it is locked, and `storage.sync` leaves the machine).
 */
const secrets = createStore('playbook-companion-secrets', 'secrets');
const API_KEY = 'api-key';

export async function loadApiKey(): Promise<string | undefined> {
  const key = await get<string>(API_KEY, secrets);
  if (typeof key !== 'string' || key.length === 0) return undefined;
  registerSecret(key);
  return key;
}

export async function storeApiKey(key: string): Promise<KeyState> {
  registerSecret(key);
  await set(API_KEY, key, secrets);
  return describeKey(key);
}

export async function removeApiKey(): Promise<KeyState> {
  await del(API_KEY, secrets);
  return { set: false };
}

export function describeKey(key: string | undefined): KeyState {
  return key ? { set: true, last4: key.slice(-4) } : { set: false };
}

export async function apiKeyState(): Promise<KeyState> {
  return describeKey(await loadApiKey());
}
