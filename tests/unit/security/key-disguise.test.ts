/**
 * The key in disguise, property-tested on the real functions that make what a page or a log
 * receives: an API error built from a problem body (errorFromStatus, scrubSecret, then the wire
 * error a page is sent) and a log record. Random keys, random disguises (separators, zero-width and
 * bidi characters, fullwidth, case, reversal, pieces of 1 to 5 characters), random text around.
 *
 * The oracle is the test's own: a text "holds the key" when, read without its disguise
 * (compatibility forms folded, lower case, letters and digits only), it spells 6 characters of
 * the key's secret part in a row, forward or backward.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { errorFromStatus, scrubSecret } from '@/lib/api/errors';
import { wireErrorOf } from '@/lib/background/errors';
import { t } from '@/lib/i18n';
import { forgetSecrets, log, maskSecrets, registerSecret, setLogSink, type LogRecord } from '@/lib/log';
import { createSecretMask, secretPart } from '@/lib/log/secretMask';
import { cpuMs, linearBound } from '../../fixtures/linearTime';

const RUN = 6;
const keyWithheld = () => t('errors.api.keyWithheld');

function skeleton(text: string): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Whether a text, read without disguise, spells RUN characters of the key's secret part in a row, either way. */
function readableKeyIn(text: string, key: string): boolean {
  const bones = skeleton(text);
  const part = skeleton(secretPart(key));
  const backward = [...part].reverse().join('');
  for (const spelled of [part, backward])
    for (let start = 0; start + RUN <= spelled.length; start++)
      if (bones.includes(spelled.slice(start, start + RUN))) return true;
  return false;
}

const BASE64URL = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'];
const key = fc
  .tuple(
    fc.constantFrom('pbk_live_', 'pbk_sentinel_', 'iak_', 'sk_test_', ''),
    fc.array(fc.constantFrom(...BASE64URL), { minLength: 16, maxLength: 64 }),
  )
  .map(([prefix, chars]) => `${prefix}${chars.join('')}`)
  // A key whose secret part has fewer than 6 letters and digits is no key format's.
  .filter((candidate) => skeleton(secretPart(candidate)).length >= 12);

/** What a hostile service puts between two pieces: nothing a reader sees, or any non-alphanumeric. */
const SEPARATORS = [
  '',
  ' ',
  '-',
  '_',
  '.',
  ' · ',
  ' / ',
  '\n',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\ufeff',
  '\u00ad',
  '\u202e',
  '\u202c',
  '\u2066',
  '\u2069',
  '\u034f',
];
const separator = fc
  .array(fc.constantFrom(...SEPARATORS), { minLength: 0, maxLength: 3 })
  .map((parts) => parts.join(''));

interface Disguise {
  reversed: boolean;
  /** Per character: 0 as is, 1 upper, 2 lower, 3 fullwidth, 4 fullwidth upper. */
  looks: number[];
  pieces: number[];
  separators: string[];
}

const disguise: fc.Arbitrary<Disguise> = fc.record({
  reversed: fc.boolean(),
  looks: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 64 + 13, maxLength: 64 + 13 }),
  pieces: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 80, maxLength: 80 }),
  separators: fc.array(separator, { minLength: 80, maxLength: 80 }),
});

function fullwidth(char: string): string {
  const code = char.codePointAt(0)!;
  return code > 0x20 && code < 0x7f ? String.fromCodePoint(code + 0xfee0) : char;
}

function disguised(secret: string, how: Disguise): string {
  const chars = how.reversed ? [...secret].reverse() : [...secret];
  const looked = chars.map((char, index) => {
    const look = how.looks[index] ?? 0;
    if (look === 1) return char.toUpperCase();
    if (look === 2) return char.toLowerCase();
    if (look === 3) return fullwidth(char);
    if (look === 4) return fullwidth(char.toUpperCase());
    return char;
  });
  let out = '';
  for (let at = 0, piece = 0; at < looked.length; piece++) {
    const size = how.pieces[piece] ?? 5;
    out += `${looked.slice(at, at + size).join('')}${how.separators[piece] ?? ''}`;
    at += size;
  }
  return out;
}

/** Ordinary words around the key: letters, digits and spaces, none of them the key's. */
const around = fc.constantFrom('', 'Forbidden: ', 'The key ', 'Your plan does not include this. Key: ', '«');

/** Where in a problem body the hostile text goes. */
const FIELDS = ['detail', 'title', 'code', 'missing_permission', 'account_state', 'errors'] as const;
const STATUSES = [400, 403, 404, 409, 500] as const;

function problemWith(field: (typeof FIELDS)[number], text: string): Record<string, unknown> {
  if (field === 'errors') return { title: 'Invalid', errors: [{ path: '/title', message: text }] };
  return field === 'title' ? { title: text } : { title: 'Refused', [field]: text };
}

/**
 * What a page is sent (the wire error) and what the error itself says, for a problem body: each
 * text a reader can see, one by one. Read as one run, the record's own words could spell a piece of
 * a random key across two fields ("message" then "getAccount" spells "ssageg"), which is no leak.
 */
function pageTextsOf(secret: string, status: number, body: Record<string, unknown>): string[] {
  const error = scrubSecret(
    errorFromStatus({ operationId: 'getAccount', status, siteUrl: 'https://x.example', problem: body }),
    secret,
  );
  return textsIn([error.toJSON(), wireErrorOf(error)]);
}

/** Every string in a value, names included, each on its own. */
function textsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(textsIn);
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([name, inner]) => [name, ...textsIn(inner)]);
  return [];
}

function logTextOf(fields: Record<string, unknown>): string {
  const records: LogRecord[] = [];
  const restore = setLogSink((record) => records.push(record));
  try {
    log.warn('api.call.failed', fields);
  } finally {
    restore();
  }
  return JSON.stringify(records);
}

afterEach(() => forgetSecrets());

describe('no disguised key survives into what a page or a log receives', () => {
  test.prop([key, disguise, around, around, fc.constantFrom(...FIELDS), fc.constantFrom(...STATUSES)], {
    numRuns: 400,
  })('in an API error built from a problem body', (secret, how, before, after, field, status) => {
    registerSecret(secret);
    const hostile = `${before}${disguised(secret, how)}${after}`;
    expect(readableKeyIn(hostile, secret)).toBe(true);
    const texts = pageTextsOf(secret, status, problemWith(field, hostile));
    expect(texts.filter((text) => readableKeyIn(text, secret))).toEqual([]);
    forgetSecrets();
  });

  test.prop([key, disguise, around, around], { numRuns: 300 })(
    'in a log record, in a field value, a nested value or a field name',
    (secret, how, before, after) => {
      registerSecret(secret);
      const hostile = `${before}${disguised(secret, how)}${after}`;
      const record = logTextOf({ detail: hostile, nested: [{ said: hostile }], [hostile]: 1 });
      expect(textsIn(JSON.parse(record)).filter((text) => readableKeyIn(text, secret))).toEqual([]);
      expect(record).toContain(JSON.stringify(keyWithheld()).slice(1, -1));
      forgetSecrets();
    },
  );
});

describe('text without the key passes unchanged', () => {
  // Any text: random Unicode, and sentences that name the key's readable prefix.
  const ordinary = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 200 }),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.constantFrom(
      'Keys look like pbk_live_ followed by 32 characters.',
      'The pbk_sentinel_ key was rejected.',
      'iak_ keys are issued at /apikey.',
    ),
  );
  test.prop([key, ordinary], { numRuns: 400 })(
    'maskSecrets, the problem text of an error and a log field',
    (secret, text) => {
      // Text without the key in any form, nor a raw fragment the piecewise mask would take.
      fc.pre(!readableKeyIn(text, secret) && !rawFragmentIn(text, secret));
      registerSecret(secret);
      expect(maskSecrets(text)).toBe(text);
      const flat = text.replace(/\s+/g, ' ').trim();
      if (flat !== '' && flat.length <= 300) {
        const error = errorFromStatus({
          operationId: 'getAccount',
          status: 409,
          siteUrl: 'https://x.example',
          problem: { title: 'Conflict', detail: text },
        });
        expect(scrubSecret(error, secret).message).toContain(flat);
        expect(logTextOf({ detail: flat })).toContain(JSON.stringify(flat).slice(1, -1));
      }
      forgetSecrets();
    },
  );
});

/** A 4-character window of the secret part or a 6-character window of the whole key, as sent. */
function rawFragmentIn(text: string, secret: string): boolean {
  const part = secretPart(secret);
  for (let start = 0; start + 4 <= part.length; start++)
    if (text.includes(part.slice(start, start + 4))) return true;
  for (let start = 0; start + 6 <= secret.length; start++)
    if (text.includes(secret.slice(start, start + 6))) return true;
  return false;
}

describe('the readable prefix alone is not the key', () => {
  it('sentences that name the key format in any spelling pass unchanged', () => {
    registerSecret('pbk_live_Zq7Xw2Vr9Ts4Pn6Lm3Kj8Hg5');
    for (const text of [
      'Keys look like PBK-LIVE-… followed by 24 characters.',
      'Ｐｂｋ\u200bｌｉｖｅ keys are issued at /apikey.',
      'evil kbp: the prefix reversed',
    ])
      expect(maskSecrets(text)).toBe(text);
    // One key-specific character after the prefix is not enough either: 'pbklivez' has one.
    expect(maskSecrets('PBK LIVE Z')).toBe('PBK LIVE Z');
    // Six key-specific characters, in any disguise, are.
    expect(maskSecrets('z\u200bq\u200b7\u200bx\u200bw\u200b2')).toBe(keyWithheld());
  });
});

describe('the cost stays linear', () => {
  it('screens a megabyte of near-misses of a 512-character key in linear time', () => {
    const secret = `pbk_live_${'Zq7Xw2Vr9Ts4Pn6Lm3Kj8Hg5'.repeat(21).slice(0, 503)}`;
    const mask = createSecretMask([secret]);
    // Five characters of the key behind zero-width characters, then a letter that is not next:
    // every position starts a run the search must give up on.
    const unit = `${[...secret.slice(9, 14)].join('\u200b')}\uff41-`;
    const text = unit.repeat(Math.ceil(1_000_000 / unit.length));
    let screened = '';
    const elapsed = cpuMs(() => {
      screened = mask.screen(text);
    });
    expect(screened).toBe(text);
    expect(elapsed).toBeLessThan(linearBound(text, 1_000));
  });
});
