/**
 * The URL and origin policy: where the key may travel and which host access that takes. Part of
 * the bottom layer (lib/contract imports nothing of ours): the store, the API client, discovery,
 * the messages' schemas and the options page all apply this one rule.
 */

/** The sandbox (`npm start`): the default service of development and test builds only. */
export const SANDBOX_SERVICE_URL = 'http://127.0.0.1:8787';

/** The two URLs the policy is about (lib/store/settings.ts keeps them). */
export interface ServiceUrls {
  serviceUrl: string;
  apiUrl: string;
}

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

/** Why a service or API URL is refused: a code; lib/i18n/problems.ts words it for the user. */
export type UrlProblem = 'empty' | 'not-a-url' | 'scheme' | 'credentials' | 'insecure';

/**
 * The one rule for a service or API URL: a full http(s) URL with no user name or password, and
 * https unless the host is loopback, because the key travels to it. Undefined when it is fine;
 * otherwise what is wrong. The options form, the worker's message schema, saveSettings and
 * every place that sends a request use this function.
 */
export function serviceUrlProblem(input: string): UrlProblem | undefined {
  const text = input.trim();
  if (text === '') return 'empty';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'not-a-url';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'scheme';
  if (url.username || url.password) return 'credentials';
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) return 'insecure';
  return undefined;
}

/** Thrown where a request would go to a URL that breaks the rule; nothing is sent. */
export class InsecureServiceUrlError extends Error {
  constructor(readonly url: string) {
    super(INSECURE_SETTINGS_MESSAGE);
    this.name = 'InsecureServiceUrlError';
  }
}

/**
 * Thrown where a key would be bound to an API origin other than the one the page that sent it
 * showed (another window saved other settings in between); nothing is stored.
 */
export class SettingsChangedError extends Error {
  constructor() {
    super('The API URL changed before the key was saved.');
    this.name = 'SettingsChangedError';
  }
}

/** What the popup and the side panel say before the first-run setup has named a service. */
export const SERVICE_SETUP_MESSAGE = 'Set up the service to see your playbooks.';

/**
 * Thrown where a request would go out before any service was saved (a fresh store install):
 * nothing is sent; the worker answers it as `settings.not-configured` (lib/background/errors.ts).
 */
export class ServiceNotConfiguredError extends Error {
  constructor() {
    super(SERVICE_SETUP_MESSAGE);
    this.name = 'ServiceNotConfiguredError';
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
export function insecureSettingsUrls(settings: ServiceUrls): string[] {
  // No service yet is not an insecure one: the first-run setup asks for it.
  return [settings.serviceUrl, settings.apiUrl]
    .filter((url) => url.trim() !== '' && serviceUrlProblem(url) !== undefined)
    .map(originOrText)
    .filter((url, index, all) => all.indexOf(url) === index);
}

/** Trailing slashes and default ports are noise in an origin comparison; keep one spelling. */
export function normalizeServiceUrl(input: string): string {
  const url = new URL(input.trim());
  url.hash = '';
  url.search = '';
  return url.toString().replace(/(?<!\/)\/+$/, '');
}

/** The origins the extension must be allowed to reach for these settings. */
export function serviceOrigins(settings: ServiceUrls): string[] {
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
