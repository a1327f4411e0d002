/**
 * Masks every fragment of a secret in a text, in linear time. A service that echoes the key back,
 * padded so that a later cut lands inside it, in short pieces spread over several fields, or only
 * its last four characters ("the key ending in 8b6f"), must not leave a part of it in an error,
 * the outbox or the log: pages are not told even the last four.
 *
 * Two sizes of window go in Sets: every 6-character window of the whole secret, and every
 * 4-character window of its secret part (the key without a readable format prefix such as
 * `pbk_live_`: four letters of that prefix are words like "live" or "sent", which every error
 * message would lose, and they say nothing a reader could use). One pass over the text marks each
 * window found there, and every marked run is replaced. Runs that join two fragments are masked
 * whole: masking too much is safe, too little is not.
 *
 * Before that, `screen` (what every page and log text goes through, lib/log maskSecrets) looks for
 * the key in disguise: 6 characters of its secret part in order, forward or reversed, in the
 * text's skeleton (see `skeleton`). A text that holds one is replaced whole by a plain sentence,
 * never cut or masked piecewise; the 4-character raw fragments above (too short to tell apart from
 * ordinary text once disguises are allowed) stay masked where they stand.
 */
export const MIN_FRAGMENT = 4;
/** Windows of the whole secret, its readable prefix included. */
export const WIDE_FRAGMENT = 6;
export const MASK = '[redacted]';

export interface SecretMask {
  /** The text with every fragment of a secret replaced by one `[redacted]` per run. */
  mask(text: string): string;
  /** True when the text holds a fragment of a secret. */
  leaks(text: string): boolean;
  /**
   * True when the text holds CARRIED_RUN (8) characters in a row of a secret's secret part: for
   * text that must stay whole (a link to open, an id), where a 4-character match is too common.
   */
  carries(text: string): boolean;
  /** True when a JSON text may hold such a run once parsed (in its raw text, or behind escapes). */
  jsonMayCarry(text: string): boolean;
  /**
   * True when the text holds DISGUISED_RUN characters of a secret's secret part in order, forward
   * or reversed, once both are reduced to their skeletons (see `skeleton`): the key behind
   * zero-width or bidi characters, in fullwidth or another case, reversed, or cut into pieces.
   */
  disguises(text: string): boolean;
  /**
   * The same test with CARRIED_RUN (8) characters: for values that must stay whole where a
   * 6-character chance match would break them (ids, links in a parsed answer).
   */
  carriesDisguised(text: string): boolean;
  /**
   * What a page or a log may receive of a text: the replacement, whole, when the text holds a
   * secret in any form (`disguises`); otherwise the text with every raw fragment masked (`mask`).
   */
  screen(text: string): string;
}

export interface SecretMaskOptions {
  /** What `screen` puts in place of a text that holds a secret: a plain sentence for a page. */
  replacement?: () => string;
}

/**
 * How many characters of a secret's secret part in a row make a text "carry" it. The 4-character
 * mask would refuse a long random link too often (about 1 in 20 hex links of 200 characters);
 * 8 characters of a key are what could be used, and chance matches are about one in a million.
 */
export const CARRIED_RUN = 8;
/** The secret part's 4-character blocks at multiples of 4: every 8-character run of it holds one. */
const ANCHOR = 4;
/**
 * Any `\uXXXX` escape: it may spell a key character, or a zero-width or bidi character put
 * between two (the raw text's skeleton would then hold the escape's hex digits, not the key).
 */
const UNICODE_ESCAPE = /\\u[0-9a-fA-F]{4}/;
const SHORT_ESCAPE = /\\["\\/]/;
/** A character JSON must (`"`, `\`) or may (`/`) escape. */
const ESCAPABLE = /["\\/]/;

/** Up to three lowercase words, each followed by `_` or `-`: `sk_live_`, `pbk_sentinel_`. */
const FORMAT_PREFIX = /^(?:[a-z]{2,12}[_-]){1,3}/;
/** A secret part shorter than this is no key format's: the whole secret counts as secret. */
const MIN_SECRET_PART = 8;

/** The part of a key that is secret: without its readable format prefix, when one leaves enough. */
export function secretPart(secret: string): string {
  const prefix = FORMAT_PREFIX.exec(secret)?.[0] ?? '';
  const rest = secret.slice(prefix.length);
  return rest.length >= MIN_SECRET_PART ? rest : secret;
}

/**
 * The key in disguise. A text is reduced to its skeleton: compatibility forms folded (NFKD: the
 * fullwidth `ｐ`, the mathematical `𝐩` and the circled `ⓟ` are all `p`), lower case, and only
 * letters and digits kept. Everything else is a separator and is dropped: spaces, punctuation,
 * zero-width and bidi characters (format, Cf), combining marks (so `p̈` is `p`). Letters and
 * digits that are not the key's are kept, so a key interleaved with other letters is not "in
 * order" (such a text is no longer the key a reader can read off). NFKD rather than NFKC so that
 * a base letter under a combining mark is found too; for this test it folds everything NFKC does.
 *
 * A secret's skeleton is searched for as any DISGUISED_RUN-character window of the skeleton of
 * its secret part, forward and reversed, in a Set: one pass over the text's skeleton, linear
 * (a key is at most 512 characters, its windows about a thousand). Only the secret part counts:
 * a window that is all or mostly the readable format prefix (`pbkliv`, `kliveq` for `pbk_live_q…`)
 * is in every sentence that names the key format, and would make ordinary help text "carry" the
 * key; a window of 6 key-specific characters of a random key turns up in ordinary text about once
 * in 36^6 (2·10^9) positions per window.
 */
export const DISGUISED_RUN = 6;
const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]+/gu;

/** The text's letters and digits, compatibility forms folded, lower case, marks dropped. */
export function skeleton(text: string): string {
  return text.normalize('NFKD').toLowerCase().normalize('NFKD').replace(NOT_LETTER_OR_DIGIT, '');
}

function reversed(text: string): string {
  return Array.from(text).reverse().join('');
}

/** The skeleton of what counts of a secret: its secret part, or the whole when that is too short. */
function secretSkeleton(secret: string): string {
  const part = skeleton(secretPart(secret));
  return part.length >= DISGUISED_RUN ? part : skeleton(secret);
}

function disguisedIn(text: string, windows: Set<string>, run: number): boolean {
  // No early exit on a short text: compatibility forms can spell more letters than they take (`ﬃ`).
  if (windows.size === 0) return false;
  const bones = skeleton(text);
  for (let start = 0; start + run <= bones.length; start++)
    if (windows.has(bones.slice(start, start + run))) return true;
  return false;
}

interface Windows {
  /** DISGUISED_RUN- and CARRIED_RUN-character windows of the secrets' skeletons, both ways. */
  disguised: Set<string>;
  disguisedCarried: Set<string>;
  wide: Set<string>;
  narrow: Set<string>;
  /** CARRIED_RUN-character windows of the secret parts, and their anchors. */
  carried: Set<string>;
  anchors: Set<string>;
  /** Whether a secret part holds a character JSON can spell with a short escape. */
  escapable: boolean;
}

function addWindows(into: Set<string>, text: string, size: number, step = 1): void {
  for (let start = 0; start + size <= text.length; start += step) into.add(text.slice(start, start + size));
}

/** Index of the windows of the secrets (a key is at most 512 long). */
function windowsOf(secrets: Iterable<string>): Windows {
  const windows: Windows = {
    disguised: new Set(),
    disguisedCarried: new Set(),
    wide: new Set(),
    narrow: new Set(),
    carried: new Set(),
    anchors: new Set(),
    escapable: false,
  };
  for (const secret of secrets) {
    const part = secretPart(secret);
    addWindows(windows.wide, secret, WIDE_FRAGMENT);
    addWindows(windows.narrow, part, MIN_FRAGMENT);
    addWindows(windows.carried, part, CARRIED_RUN);
    addWindows(windows.anchors, part, ANCHOR, ANCHOR);
    if (ESCAPABLE.test(part)) windows.escapable = true;
    const bones = secretSkeleton(secret);
    for (const spelled of [bones, reversed(bones)]) {
      addWindows(windows.disguised, spelled, DISGUISED_RUN);
      addWindows(windows.disguisedCarried, spelled, CARRIED_RUN);
    }
  }
  return windows;
}

/**
 * Each anchor is one native search of the text, and only where one is found are the runs around
 * it looked up: linear, and cheap enough to run on every answer the API sends.
 */
function carriedIn(text: string, windows: Windows): boolean {
  if (windows.anchors.size === 0 || text.length < CARRIED_RUN) return false;
  for (const anchor of windows.anchors) {
    for (let at = text.indexOf(anchor); at !== -1; at = text.indexOf(anchor, at + 1)) {
      // An 8-character run of a secret part holds its anchor at offset 0 to 3 of the run.
      const last = Math.min(at, text.length - CARRIED_RUN);
      for (let from = Math.max(0, at - (ANCHOR - 1)); from <= last; from++)
        if (windows.carried.has(text.slice(from, from + CARRIED_RUN))) return true;
    }
  }
  return false;
}

/** The masked runs, [start, end) in text order, overlapping or touching runs joined. */
function maskedRuns(text: string, windows: Windows): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  if (windows.narrow.size === 0 && windows.wide.size === 0) return runs;
  for (let start = 0; start + MIN_FRAGMENT <= text.length; start++) {
    let end = windows.narrow.has(text.slice(start, start + MIN_FRAGMENT)) ? start + MIN_FRAGMENT : 0;
    if (start + WIDE_FRAGMENT <= text.length && windows.wide.has(text.slice(start, start + WIDE_FRAGMENT)))
      end = start + WIDE_FRAGMENT;
    if (end === 0) continue;
    const last = runs[runs.length - 1];
    // Windows overlap or touch: one run, so the text shows one mask, not a stutter of them.
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else runs.push([start, end]);
  }
  return runs;
}

export function createSecretMask(secrets: Iterable<string>, options: SecretMaskOptions = {}): SecretMask {
  const windows = windowsOf(secrets);
  const replacement = options.replacement ?? (() => MASK);
  const mask = (text: string): string => {
    const runs = maskedRuns(text, windows);
    if (runs.length === 0) return text;
    let out = '';
    let from = 0;
    for (const [start, end] of runs) {
      out += text.slice(from, start) + MASK;
      from = end;
    }
    return out + text.slice(from);
  };
  const disguises = (text: string): boolean => disguisedIn(text, windows.disguised, DISGUISED_RUN);
  const carriesDisguised = (text: string): boolean =>
    disguisedIn(text, windows.disguisedCarried, CARRIED_RUN);
  return {
    mask,
    // Whole or not at all: a text that holds the key in a disguise is not cut into what is left.
    screen: (text) => (disguises(text) ? replacement() : mask(text)),
    disguises,
    carriesDisguised,
    leaks(text) {
      return maskedRuns(text, windows).length > 0;
    },
    carries: (text) => carriedIn(text, windows),
    jsonMayCarry(text) {
      if (windows.anchors.size === 0) return false;
      if (carriedIn(text, windows) || UNICODE_ESCAPE.test(text) || carriesDisguised(text)) return true;
      return windows.escapable && SHORT_ESCAPE.test(text);
    },
  };
}

/**
 * Screens every string inside a plain value (an error's data, a wire error), keeping its shape:
 * each string that holds a secret in any form is replaced whole, the others lose raw fragments.
 */
export function maskDeep<T>(value: T, mask: SecretMask, depth = 0): T {
  if (typeof value === 'string') return mask.screen(value) as T;
  if (value === null || typeof value !== 'object') return value;
  // Too deep to walk: dropped, not passed on unmasked (fail closed).
  if (depth > 8) return MASK as T;
  if (Array.isArray(value)) return value.map((item: unknown) => maskDeep(item, mask, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
    out[mask.screen(name)] = maskDeep(item, mask, depth + 1);
  }
  return out as T;
}
