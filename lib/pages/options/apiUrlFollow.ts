/**
 * The API URL as the service URL suggests it: the sandbox and the default settings serve the API
 * under the service at this path, so an empty API URL starts from it.
 */
export const CONVENTIONAL_API_PATH = '/api/v1';

function withoutTrailingSlashes(url: string): string {
  let trimmed = url.trim();
  while (trimmed.endsWith('/')) trimmed = trimmed.slice(0, -1);
  return trimmed;
}

/**
 * What the API URL adds to the service URL when it follows it: its path under the service URL
 * (the default's `/api/v1`, or a path discovery found on the service's own address), or the
 * conventional path when it is empty. Undefined when the API URL lies elsewhere (another origin, as
 * a user types it): that one is the user's own and never changes with the service URL.
 */
export function apiPathUnder(serviceUrl: string, apiUrl: string): string | undefined {
  const api = apiUrl.trim();
  if (api === '') return CONVENTIONAL_API_PATH;
  const base = withoutTrailingSlashes(serviceUrl);
  if (base === '') return undefined;
  if (withoutTrailingSlashes(api) === base) return '';
  return api.startsWith(`${base}/`) ? api.slice(base.length) : undefined;
}

/** The API URL that follows `serviceUrl` at `path`; empty while the service URL is. */
export function followingApiUrl(serviceUrl: string, path: string): string {
  const base = withoutTrailingSlashes(serviceUrl);
  return base === '' ? '' : `${base}${path}`;
}
