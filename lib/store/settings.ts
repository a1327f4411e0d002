import { STORE_MODE } from '@/lib/contract/buildMode';
import { database } from './db';
import {
  InsecureServiceUrlError,
  normalizeServiceUrl,
  SANDBOX_SERVICE_URL,
  ServiceNotConfiguredError,
  serviceUrlProblem,
} from '@/lib/contract/origins';
import type { SettingsRecord } from './schema';

/**
 * Where the extension looks for the service. Not secret, but it decides where the key is sent,
 * so it lives in the extension origin's IndexedDB: content scripts can write `storage.local`
 * (they need it for their own dismissals), and a rewritten API URL would carry the key away.
 */
export type Settings = SettingsRecord;

/**
 * A development build talks to the sandbox at once; a store build has no service until the user
 * names one in the first-run setup (empty URLs, which no request passes: serviceUrlProblem).
 */
export function defaultSettingsFor(mode: string): Settings {
  return mode === STORE_MODE
    ? { serviceUrl: '', apiUrl: '', pollMinutes: 5 }
    : { serviceUrl: SANDBOX_SERVICE_URL, apiUrl: `${SANDBOX_SERVICE_URL}/api/v1`, pollMinutes: 5 };
}

// `?.`: the bench and scripts import the API client under plain Node (tsx), where no build defines
// import.meta.env; they get the development defaults, as `npm run build` does.
export const DEFAULT_SETTINGS: Settings = defaultSettingsFor(import.meta.env?.MODE ?? 'development');

/** False until a service has been saved (a fresh store install): nothing may be sent before. */
export function isServiceConfigured(settings: Pick<Settings, 'serviceUrl'>): boolean {
  return settings.serviceUrl.trim() !== '';
}

/** The settings, or ServiceNotConfiguredError before a service is saved: the guard of every sender. */
export async function configuredSettings(): Promise<Settings> {
  const settings = await getSettings();
  if (!isServiceConfigured(settings)) throw new ServiceNotConfiguredError();
  return settings;
}

const SETTINGS_KEY = 'settings';

export async function getSettings(): Promise<Settings> {
  return { ...DEFAULT_SETTINGS, ...(await (await database()).get('settings', SETTINGS_KEY)) };
}

export interface SettingsChange {
  settings: Settings;
  /** True when the service moved: caches of the old one must go. */
  serviceChanged: boolean;
}

/** The reminder fields of the next settings: each one given replaces the saved one. */
function reminderSettings(next: Partial<Settings>, current: Settings): Partial<Settings> {
  const reminderLead = next.reminderLead ?? current.reminderLead;
  const quietHours = next.quietHours === undefined ? current.quietHours : next.quietHours;
  return {
    ...(reminderLead === undefined ? {} : { reminderLead }),
    ...(quietHours === undefined ? {} : { quietHours }),
  };
}

export async function saveSettings(next: Partial<Settings>): Promise<SettingsChange> {
  for (const url of [next.serviceUrl, next.apiUrl]) {
    const problem = url === undefined ? undefined : serviceUrlProblem(url);
    if (problem !== undefined) throw new InsecureServiceUrlError(url ?? '');
  }
  const current = await getSettings();
  const settings: Settings = {
    serviceUrl: next.serviceUrl ? normalizeServiceUrl(next.serviceUrl) : current.serviceUrl,
    apiUrl: next.apiUrl ? normalizeServiceUrl(next.apiUrl) : current.apiUrl,
    pollMinutes: next.pollMinutes ?? current.pollMinutes,
    ...reminderSettings(next, current),
  };
  await (await database()).put('settings', settings, SETTINGS_KEY);
  return {
    settings,
    serviceChanged: settings.serviceUrl !== current.serviceUrl || settings.apiUrl !== current.apiUrl,
  };
}
