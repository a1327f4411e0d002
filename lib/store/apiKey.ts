import { createStore, del, get, set } from 'idb-keyval';
import { sha256Hex } from '@/lib/digest';
import { registerSecret } from '@/lib/log';
import type { KeyState } from '@/lib/messaging/protocol';
import { getSettings } from './settings';

/**
 * The API key lives in IndexedDB of the extension's own origin. Content scripts run in the page's
 * origin and cannot open this database; `storage.*` areas are avoided on purpose (content scripts
 * can read `storage.local` unless it is locked, and `storage.sync` leaves the machine).
 * A key is bound to the API origin it was saved for: pointing the settings elsewhere never sends
 * it there; the user enters a key for the new service.
 */
const secrets = createStore('playbook-companion-secrets', 'secrets');
const API_KEY = 'api-key';

interface StoredKey {
  key: string;
  apiOrigin: string;
}

async function currentApiOrigin(): Promise<string> {
  return new URL((await getSettings()).apiUrl).origin;
}

function isStoredKey(value: unknown): value is StoredKey {
  const record = value as Partial<StoredKey> | undefined;
  return typeof record?.key === 'string' && record.key.length > 0 && typeof record.apiOrigin === 'string';
}

/** The key for the configured API origin, or undefined when none was saved for it. */
export async function loadApiKey(): Promise<string | undefined> {
  const stored = await get<unknown>(API_KEY, secrets);
  if (!isStoredKey(stored) || stored.apiOrigin !== (await currentApiOrigin())) return undefined;
  registerSecret(stored.key);
  return stored.key;
}

/** Saves the key for the API origin configured now (settings are saved first). */
export async function storeApiKey(key: string): Promise<KeyState> {
  registerSecret(key);
  await set(API_KEY, { key, apiOrigin: await currentApiOrigin() } satisfies StoredKey, secrets);
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

/** Tells keys apart without keeping them: the first 16 hex digits of the key's SHA-256. */
export async function keyFingerprint(): Promise<string | undefined> {
  const key = await loadApiKey();
  return key ? fingerprintOfKey(key) : undefined;
}

/** The fingerprint of a given key; the API client checks the key it sends against the confirmed one. */
export async function fingerprintOfKey(key: string): Promise<string> {
  return (await sha256Hex(new TextEncoder().encode(key))).slice(0, 16);
}
