import { sha256Hex } from '@/lib/digest';
import { registerSecret } from '@/lib/log';
import { del, get, set } from 'idb-keyval';
import { keyValueStore } from './db';
import type { ApiKeyRecord } from './schema';
import { getSettings } from './settings';

/** What pages may know of the stored key (the options page shows it). */
export interface KeyState {
  set: boolean;
  /** The last four characters, so the user can tell which key is stored; never more. */
  last4?: string;
}

/**
 * The API key lives in the extension's own database (lib/store/inventory.ts). Content scripts run in the page's
 * origin and cannot open this database; `storage.*` areas are avoided on purpose (content scripts
 * can read `storage.local` unless it is locked, and `storage.sync` leaves the machine).
 * A key is bound to the API origin it was saved for: pointing the settings elsewhere never sends
 * it there; the user enters a key for the new service.
 */
const API_KEY = 'api-key';
const secrets = keyValueStore('secrets');

async function currentApiOrigin(): Promise<string> {
  return new URL((await getSettings()).apiUrl).origin;
}

/** A record copied from an older version is checked, not trusted. */
function isStoredKey(value: unknown): value is ApiKeyRecord {
  const record = value as Partial<ApiKeyRecord> | undefined;
  return typeof record?.key === 'string' && record.key.length > 0 && typeof record.apiOrigin === 'string';
}

/** The key for the configured API origin, or undefined when none was saved for it. */
export async function loadApiKey(): Promise<string | undefined> {
  const stored: unknown = await get(API_KEY, secrets);
  if (!isStoredKey(stored) || stored.apiOrigin !== (await currentApiOrigin())) return undefined;
  registerSecret(stored.key);
  return stored.key;
}

/** Saves the key for the API origin configured now (settings are saved first). */
export async function storeApiKey(key: string): Promise<KeyState> {
  registerSecret(key);
  const record: ApiKeyRecord = { key, apiOrigin: await currentApiOrigin() };
  await set(API_KEY, record, secrets);
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
