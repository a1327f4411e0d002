import { isLoopbackHost } from '@/lib/contract/origins';

/** The origins among these URLs that need a host-permission grant: all but loopback (the sandbox hosts the extension always has). */
export function originsNeedingAccess(urls: string[]): string[] {
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
