import { STORE_MODE } from '@/lib/contract/buildMode';
import { database } from './db';
import type { SettingsRecord } from './schema';

/**
 * Where the extension looks for the service. Not secret, but it decides where the key is sent,
 * so it lives in the extension origin's IndexedDB: content scripts can write `storage.local`
 * (they need it for their own dismissals), and a rewritten API URL would carry the key away.
 */
export type Settings = SettingsRecord;

/** The sandbox (`npm start`): the default service of development and test builds only. */
export const SANDBOX_SERVICE_URL = 'http://127.0.0.1:8787';

/**
 * A development build talks to the sandbox at once; a store build has no service until the user
 * names one in the first-run setup (empty URLs, which no request passes: serviceUrlProblem).
 */
export function defaultSettingsFor(mode: string): Settings {
  return mode === STORE_MODE
    ? { serviceUrl: '', apiUrl: '', pollMinutes: 5 }
    : { serviceUrl: SANDBOX_SERVICE_URL, apiUrl: `${SANDBOX_SERVICE_URL}/api/v1`, pollMinutes: 5 };
}

export const DEFAULT_SETTINGS: Settings = defaultSettingsFor(import.meta.env.MODE);

/** False until a service has been saved (a fresh store install): nothing may be sent before. */
export function isServiceConfigured(settings: Pick<Settings, 'serviceUrl'>): boolean {
  return settings.serviceUrl.trim() !== '';
}

const SETTINGS_KEY = 'settings';

/** 127.0.0.0/8, localhost and [::1]: the only hosts where plain http may carry the key. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  const octets = host.split('.');
  return (
    octets.length === 4 &&
    octets[0] === '127' &&
    octets.every((octet) => /^\d{1,3}$/.test(octet) && Number(octet) <= 255)
  );
}

/**
 * The one rule for a service or API URL: a full http(s) URL with no user name or password, and
 * https unless the host is loopback, because the key travels to it. Undefined when it is fine;
 * otherwise the sentence to show. The options form, the worker's message schema, saveSettings and
 * every place that sends a request use this function.
 */
export function serviceUrlProblem(input: string): string | undefined {
  const text = input.trim();
  if (text === '') return 'Enter a URL.';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'Enter a full URL, like https://example.com';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'Only http and https URLs work.';
  if (url.username || url.password) return 'Leave out any user name or password.';
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname))
    return 'Use https for a service that is not on this computer.';
  return undefined;
}

/** Thrown where a request would go to a URL that breaks the rule; nothing is sent. */
export class InsecureServiceUrlError extends Error {
  constructor(readonly url: string) {
    super(INSECURE_SETTINGS_MESSAGE);
    this.name = 'InsecureServiceUrlError';
  }
}

export const INSECURE_SETTINGS_MESSAGE =
  'Your service URL uses http:// on a non-local host; the key is never sent over plain http. Change it to https:// in Options.';

/** Guards a request: throws (before anything is sent) when the URL may not carry the key. */
export function assertServiceUrlAllowed(url: string | URL): void {
  const text = typeof url === 'string' ? url : url.href;
  if (serviceUrlProblem(text) !== undefined) throw new InsecureServiceUrlError(originOrText(text));
}

function originOrText(text: string): string {
  try {
    return new URL(text).origin;
  } catch {
    return text.slice(0, 200);
  }
}

/** Which saved URLs break the rule (settings saved by an older version, say); empty when none. */
export function insecureSettingsUrls(settings: Pick<Settings, 'serviceUrl' | 'apiUrl'>): string[] {
  // No service yet is not an insecure one: the first-run setup asks for it.
  return [settings.serviceUrl, settings.apiUrl]
    .filter((url) => url.trim() !== '' && serviceUrlProblem(url) !== undefined)
    .map(originOrText)
    .filter((url, index, all) => all.indexOf(url) === index);
}

export async function getSettings(): Promise<Settings> {
  return { ...DEFAULT_SETTINGS, ...(await (await database()).get('settings', SETTINGS_KEY)) };
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
  for (const url of [next.serviceUrl, next.apiUrl]) {
    const problem = url === undefined ? undefined : serviceUrlProblem(url);
    if (problem !== undefined) throw new InsecureServiceUrlError(url ?? '');
  }
  const current = await getSettings();
  const settings: Settings = {
    serviceUrl: next.serviceUrl ? normalizeServiceUrl(next.serviceUrl) : current.serviceUrl,
    apiUrl: next.apiUrl ? normalizeServiceUrl(next.apiUrl) : current.apiUrl,
    pollMinutes: next.pollMinutes ?? current.pollMinutes,
  };
  await (await database()).put('settings', settings, SETTINGS_KEY);
  return {
    settings,
    serviceChanged: settings.serviceUrl !== current.serviceUrl || settings.apiUrl !== current.apiUrl,
  };
}

/** The origins the extension must be allowed to reach for these settings. */
export function serviceOrigins(settings: Settings): string[] {
  // None before the first-run setup names a service.
  const urls = [settings.serviceUrl, settings.apiUrl].filter((url) => url.trim() !== '');
  return [...new Set(urls.map((url) => new URL(url).origin))];
}

/**
 * The host permission pattern that lets the extension reach `origin`, the same for asking
 * (`permissions.request`) and checking (`permissions.contains`).
 *
 * COMPAT(firefox): Firefox match patterns carry no port: `permissions.contains` answers false for
 * `http://127.0.0.1:8787/*` even when the manifest grants `http://127.0.0.1/*`. A port-less
 * pattern covers every port of the host in both browsers; Chrome keeps the narrower, port-bearing one.
 */
export function hostAccessPattern(origin: string, portsInPatterns = !import.meta.env.FIREFOX): string {
  const url = new URL(origin);
  return portsInPatterns ? `${url.origin}/*` : `${url.protocol}//${url.hostname}/*`;
}
