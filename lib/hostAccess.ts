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
