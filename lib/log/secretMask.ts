/**
 * Masks every fragment of a secret (6 characters or more) in a text, in linear time. A service
 * that echoes the key back, padded so that a later cut lands inside it, or in 6- or 7-character
 * pieces spread over several fields, must not leave a usable part of it in an error, the outbox
 * or the log. Every 6-character window of each secret goes in
 * a Set; one pass over the text marks each window found there, and every marked run is replaced.
 * Runs that join two fragments are masked whole: masking too much is safe, too little is not.
 */
export const MIN_FRAGMENT = 6;
export const MASK = '[redacted]';

export interface SecretMask {
  /** The text with every fragment of a secret replaced by one `[redacted]` per run. */
  mask(text: string): string;
  /** True when the text holds a fragment of a secret. */
  leaks(text: string): boolean;
}

/** Index of every window of MIN_FRAGMENT characters of the secrets (a key is at most 512 long). */
function windowsOf(secrets: Iterable<string>): Set<string> {
  const windows = new Set<string>();
  for (const secret of secrets) {
    for (let start = 0; start + MIN_FRAGMENT <= secret.length; start++) {
      windows.add(secret.slice(start, start + MIN_FRAGMENT));
    }
  }
  return windows;
}

/** End (exclusive) of each masked run, indexed by its start; undefined when nothing matches. */
function maskedRuns(text: string, windows: Set<string>): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  if (windows.size === 0) return runs;
  for (let start = 0; start + MIN_FRAGMENT <= text.length; start++) {
    if (!windows.has(text.slice(start, start + MIN_FRAGMENT))) continue;
    const end = start + MIN_FRAGMENT;
    const last = runs[runs.length - 1];
    // Windows overlap or touch: one run, so the text shows one mask, not a stutter of them.
    if (last && start <= last[1]) last[1] = end;
    else runs.push([start, end]);
  }
  return runs;
}

export function createSecretMask(secrets: Iterable<string>): SecretMask {
  const windows = windowsOf(secrets);
  return {
    mask(text) {
      const runs = maskedRuns(text, windows);
      if (runs.length === 0) return text;
      let out = '';
      let from = 0;
      for (const [start, end] of runs) {
        out += text.slice(from, start) + MASK;
        from = end;
      }
      return out + text.slice(from);
    },
    leaks(text) {
      return maskedRuns(text, windows).length > 0;
    },
  };
}

/** Masks every string inside a plain value (an error's data, a wire error), keeping its shape. */
export function maskDeep<T>(value: T, mask: SecretMask, depth = 0): T {
  if (typeof value === 'string') return mask.mask(value) as T;
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item: unknown) => maskDeep(item, mask, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
    out[mask.mask(name)] = maskDeep(item, mask, depth + 1);
  }
  return out as T;
}
