import { sha256Hex } from '@/lib/digest';
import { registerSecret } from '@/lib/log';
import { del, get, set } from 'idb-keyval';
import { keyValueStore } from './db';
import type { KeyState } from '@/lib/contract/wire';
import type { ApiKeyRecord } from './schema';
import { getSettings } from './settings';
import { SettingsChangedError } from '@/lib/contract/origins';

export type { KeyState } from '@/lib/contract/wire';

/**
 * The API key lives in the extension's own database (lib/store/inventory.ts). Content scripts run in the page's
 * origin and cannot open this database; `storage.*` areas are avoided on purpose (content scripts
 * can read `storage.local` unless it is locked, and `storage.sync` leaves the machine).
 * A key is bound to the API origin it was saved for: pointing the settings elsewhere never sends
 * it there; the user enters a key for the new service.
 */
const API_KEY = 'api-key';
const secrets = keyValueStore('secrets');

function originOrUndefined(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

async function currentApiOrigin(): Promise<string> {
  return new URL((await getSettings()).apiUrl).origin;
}

/** A record copied from an older version is checked, not trusted. */
function isStoredKey(value: unknown): value is ApiKeyRecord {
  const record = value as Partial<ApiKeyRecord> | undefined;
  return typeof record?.key === 'string' && record.key.length > 0 && typeof record.apiOrigin === 'string';
}

/** The record for the configured API origin, or undefined when none was saved for it. */
async function loadKeyRecord(): Promise<ApiKeyRecord | undefined> {
  const stored: unknown = await get(API_KEY, secrets);
  if (!isStoredKey(stored) || stored.apiOrigin !== (await currentApiOrigin())) return undefined;
  registerSecret(stored.key);
  return stored;
}

/**
 * The key for the configured API origin, or undefined when none was saved for it. `forOrigin`:
 * the origin the caller will send it to; a client built for an older API URL gets nothing, not
 * the key the user saved for the new one.
 */
export async function loadApiKey(forOrigin?: string): Promise<string | undefined> {
  const record = await loadKeyRecord();
  if (forOrigin !== undefined && record?.apiOrigin !== forOrigin) return undefined;
  return record?.key;
}

/** Saves the key for the API origin configured now (settings are saved first). */
export async function storeApiKey(key: string, shownApiUrl?: string): Promise<KeyState> {
  const apiOrigin = await currentApiOrigin();
  // The page saved (and showed) one API URL; another window may have saved another since. The key
  // is meant for the one the user saw: bound to any other, it would be sent to that origin.
  if (shownApiUrl !== undefined && originOrUndefined(shownApiUrl) !== apiOrigin)
    throw new SettingsChangedError();
  registerSecret(key);
  const record: ApiKeyRecord = { key, apiOrigin, savedAt: Date.now() };
  await set(API_KEY, record, secrets);
  return describeKey(record);
}

export async function removeApiKey(): Promise<KeyState> {
  await del(API_KEY, secrets);
  return { set: false };
}

/** What pages learn of a stored key: no character of it, only when it was saved. */
function describeKey(record: ApiKeyRecord | undefined): KeyState {
  if (!record) return { set: false };
  const savedAt = record.savedAt;
  return typeof savedAt === 'number' && Number.isFinite(savedAt) ? { set: true, savedAt } : { set: true };
}

export async function apiKeyState(): Promise<KeyState> {
  return describeKey(await loadKeyRecord());
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
