import { isLoopbackHost } from '@/lib/store/settings';

/** Origins among these URLs that are not loopback (the sandbox hosts the extension always has). */
export function customOrigins(urls: string[]): string[] {
  const out = new Set<string>();
  for (const text of urls) {
    try {
      const url = new URL(text.trim());
      if (!isLoopbackHost(url.hostname)) out.add(url.origin);
    } catch {
      // Invalid URLs are reported by serviceUrlProblem.
    }
  }
  return [...out];
}
