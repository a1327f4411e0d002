import { isLoopbackHost, serviceUrlProblem } from '@/lib/store/settings';

/** Checks a service or API URL as the user typed it; undefined when it is fine. The worker applies the same rule. */
export const urlProblem = serviceUrlProblem;
export const isLoopback = isLoopbackHost;

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
