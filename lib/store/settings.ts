import { createStore, get, set } from 'idb-keyval';

/**
 * Where the extension looks for the service. Not secret, but it decides where the key is sent,
 * so it lives in the extension origin's IndexedDB: content scripts can write `storage.local`
 * (they need it for their own dismissals), and a rewritten API URL would carry the key away.
 */
export interface Settings {
  serviceUrl: string;
  apiUrl: string;
  /** How often the background polls `listEvents` while no side panel streams them. */
  pollMinutes: number;
}

/** The sandbox (`npm start`) is the default service, so a fresh install works with no setup. */
export const SANDBOX_SERVICE_URL = 'http://127.0.0.1:8787';
export const DEFAULT_SETTINGS: Settings = {
  serviceUrl: SANDBOX_SERVICE_URL,
  apiUrl: `${SANDBOX_SERVICE_URL}/api/v1`,
  pollMinutes: 5,
};

const settingsStore = createStore('playbook-companion-settings', 'settings');
const SETTINGS_KEY = 'settings';

export async function getSettings(): Promise<Settings> {
  return { ...DEFAULT_SETTINGS, ...(await get<Partial<Settings>>(SETTINGS_KEY, settingsStore)) };
}

/** Trailing slashes and default ports are noise in an origin comparison; keep one spelling. */
export function normalizeServiceUrl(input: string): string {
  const url = new URL(input.trim());
  url.hash = '';
  url.search = '';
  return url.toString().replace(/(?<!\/)\/+$/, '');
}

export interface SettingsChange {
  settings: Settings;
  /** True when the service moved: caches of the old one must go. */
  serviceChanged: boolean;
}

export async function saveSettings(next: Partial<Settings>): Promise<SettingsChange> {
  const current = await getSettings();
  const settings: Settings = {
    serviceUrl: next.serviceUrl ? normalizeServiceUrl(next.serviceUrl) : current.serviceUrl,
    apiUrl: next.apiUrl ? normalizeServiceUrl(next.apiUrl) : current.apiUrl,
    pollMinutes: next.pollMinutes ?? current.pollMinutes,
  };
  await set(SETTINGS_KEY, settings, settingsStore);
  return {
    settings,
    serviceChanged: settings.serviceUrl !== current.serviceUrl || settings.apiUrl !== current.apiUrl,
  };
}

/** The origins the extension must be allowed to reach for these settings. */
export function serviceOrigins(settings: Settings): string[] {
  return [...new Set([new URL(settings.serviceUrl).origin, new URL(settings.apiUrl).origin])];
}
