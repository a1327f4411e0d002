/** Checks a service or API URL as the user typed it; undefined when it is fine. */
export function urlProblem(input: string): string | undefined {
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
  if (url.protocol === 'http:' && !isLoopback(url.hostname))
    return 'Use https for a service that is not on this computer.';
  return undefined;
}

export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/** Origins among these URLs that are not loopback (the sandbox hosts the extension always has). */
export function customOrigins(urls: string[]): string[] {
  const out = new Set<string>();
  for (const text of urls) {
    try {
      const url = new URL(text.trim());
      if (!isLoopback(url.hostname)) out.add(url.origin);
    } catch {
      // Invalid URLs are reported by urlProblem.
    }
  }
  return [...out];
}
