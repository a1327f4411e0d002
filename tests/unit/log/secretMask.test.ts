import { afterEach, describe, expect, it } from 'vitest';
import {
  forgetSecrets,
  keyWithheld,
  log,
  maskSecrets,
  registerSecret,
  setLogSink,
  type LogRecord,
} from '@/lib/log';
import { createSecretMask, MASK, MIN_FRAGMENT, secretPart, WIDE_FRAGMENT } from '@/lib/log/secretMask';
import { cpuNow, linearBound } from '../../fixtures/linearTime';

const KEY = 'sk_live_9f8e7d6c5b4a3210ffeeddcc';
const mask = createSecretMask([KEY]);

/** The key without its readable format prefix `sk_live_`. */
const SECRET_PART = KEY.slice('sk_live_'.length);

/**
 * Every window of WIDE_FRAGMENT characters of the key and of MIN_FRAGMENT characters of its
 * secret part: none of them may survive masking.
 */
function fragmentsIn(text: string, secret = KEY, part = SECRET_PART): string[] {
  const found: string[] = [];
  const windows = (of: string, size: number) => {
    for (let start = 0; start + size <= of.length; start++) {
      const window = of.slice(start, start + size);
      if (text.includes(window)) found.push(window);
    }
  };
  windows(secret, WIDE_FRAGMENT);
  windows(part, MIN_FRAGMENT);
  return found;
}

afterEach(() => forgetSecrets());

describe('createSecretMask', () => {
  it.each([
    ['the whole key', `before ${KEY} after`, `before ${MASK} after`],
    ['a fragment at the start', `x${KEY.slice(0, 8)}y`, `x${MASK}y`],
    ['a fragment in the middle', `x${KEY.slice(9, 20)}y`, `x${MASK}y`],
    ['a fragment at the end', `x${KEY.slice(-10)}`, `x${MASK}`],
    ['the key twice, touching', `${KEY}${KEY}`, MASK],
    ['two fragments apart', `a ${KEY.slice(0, 9)} b ${KEY.slice(15)} c`, `a ${MASK} b ${MASK} c`],
    ['3 characters are not a fragment', `x${KEY.slice(-3)}y`, `x${KEY.slice(-3)}y`],
    ['4 characters are: the last four', `ends in ${KEY.slice(-4)}.`, `ends in ${MASK}.`],
    ['4 characters of the secret part', `x${SECRET_PART.slice(5, 9)}y`, `x${MASK}y`],
    ['a word of the format prefix is not', 'we live here', 'we live here'],
    ['6 characters with the prefix are', `x${KEY.slice(2, 8)}y`, `x${MASK}y`],
    ['text without the key', 'nothing to see here', 'nothing to see here'],
    ['an empty text', '', ''],
  ])('%s', (_label, text, expected) => {
    expect(mask.mask(text)).toBe(expected);
    expect(fragmentsIn(mask.mask(text))).toEqual([]);
  });

  it('finds the secret part after a readable prefix, and the whole of a key without one', () => {
    expect(secretPart(KEY)).toBe(SECRET_PART);
    expect(secretPart('pbk_sentinel_rejected_1764130000_QZXW')).toBe('1764130000_QZXW');
    expect(secretPart('Xk9_QmZpLr2vT8')).toBe('Xk9_QmZpLr2vT8');
    // A prefix that would leave too little: all of it is secret.
    expect(secretPart('abc_defgh12')).toBe('abc_defgh12');
  });

  it('masks every fragment of every length and position', () => {
    for (let start = 0; start < KEY.length; start++) {
      const inPart = start >= KEY.length - SECRET_PART.length;
      for (let end = start + (inPart ? MIN_FRAGMENT : WIDE_FRAGMENT); end <= KEY.length; end++) {
        const masked = mask.mask(`<${KEY.slice(start, end)}>`);
        expect(masked).toBe(`<${MASK}>`);
      }
    }
  });

  it('treats a key with regular-expression characters as plain text', () => {
    const odd = 'a.b*c+d?e(f)g[h]i{j}k|l^m$n\\o';
    const oddMask = createSecretMask([odd]);
    expect(oddMask.mask(`x ${odd.slice(2, 14)} y`)).toBe(`x ${MASK} y`);
    expect(oddMask.mask('aXbXcXdXeXfXg')).toBe('aXbXcXdXeXfXg');
  });

  it('masks a megabyte of text in linear time', () => {
    const unit = `${KEY.slice(0, 7)}-${KEY.slice(5, 13)}.`;
    const text = unit.repeat(Math.ceil(1_000_000 / unit.length));
    const started = cpuNow();
    const masked = mask.mask(text);
    const elapsed = cpuNow() - started;
    expect(fragmentsIn(masked)).toEqual([]);
    // A quadratic scan of 1 MB takes minutes: a million passes over it, not a few hundred.
    expect(elapsed).toBeLessThan(linearBound(text, 1_000));
  });
});

describe('the logger', () => {
  it('masks before it cuts, so a cut inside the key leaves no fragment', () => {
    registerSecret(KEY);
    const records: LogRecord[] = [];
    const restore = setLogSink((record) => records.push(record));
    try {
      for (let offset = 0; offset <= KEY.length; offset++) {
        log.warn('api.call.failed', { detail: `${'x'.repeat(500 - offset)}${KEY}` });
      }
    } finally {
      restore();
    }
    expect(records).toHaveLength(KEY.length + 1);
    for (const record of records) expect(fragmentsIn(JSON.stringify(record))).toEqual([]);
  });

  it('maskSecrets masks fragments of every registered secret, and withholds a text that holds 6 in order', () => {
    registerSecret(KEY);
    registerSecret('another-secret-value');
    // 4 characters of the secret part (after the readable `_live_`): masked where they stand.
    expect(maskSecrets(`${KEY.slice(2, 12)} and x`)).toBe(`${MASK} and x`);
    // 6 or more in order ('secretval'): the whole text is withheld, never masked piecewise.
    expect(maskSecrets(`${KEY.slice(2, 12)} and secret-val`)).toBe(keyWithheld());
    forgetSecrets();
    expect(maskSecrets(KEY)).toBe(KEY);
  });
});
