import { afterEach, describe, expect, it } from 'vitest';
import { carriesSecret, forgetSecrets, jsonMayCarrySecret, registerSecret } from '@/lib/log';

afterEach(() => forgetSecrets());

const KEY = 'pbk_live_Zq7Xw2Vr9Ts4Pn6Lm3Kj8Hg5';
/** The part a reader could use: the key without its readable prefix. */
const SECRET = KEY.slice('pbk_live_'.length);
const FILLER = 'The service said something long and harmless about playbooks. ';

describe('carriesSecret finds 8 characters of a key in a row, wherever they stand', () => {
  it('every 8-character run of its secret part, at every offset of the text; never a 7-character one', () => {
    registerSecret(KEY);
    for (let start = 0; start + 8 <= SECRET.length; start++) {
      for (const pad of [0, 1, 2, 3, 5, 70]) {
        // '#' is in no key: the run cannot join the padding into a longer run of the key.
        const before = `${FILLER}${'#'.repeat(pad)}`;
        expect(carriesSecret(`${before}${SECRET.slice(start, start + 8)}#${FILLER}`), `${start}/${pad}`).toBe(
          true,
        );
        expect(carriesSecret(`${before}${SECRET.slice(start, start + 7)}#${FILLER}`), `${start}/${pad}`).toBe(
          false,
        );
      }
    }
    expect(carriesSecret(KEY.slice(-8))).toBe(true);
    // Its readable prefix alone says nothing: 'pbk_live' is no part of the secret.
    expect(carriesSecret('pbk_live_ and more')).toBe(false);
    expect(carriesSecret(FILLER.repeat(50))).toBe(false);
  });

  it('knows nothing before a key is registered, and nothing after it is forgotten', () => {
    expect(carriesSecret(KEY)).toBe(false);
    registerSecret(KEY);
    expect(carriesSecret(KEY)).toBe(true);
    forgetSecrets();
    expect(carriesSecret(KEY)).toBe(false);
  });
});

describe('jsonMayCarrySecret', () => {
  it('says yes for the key in the raw text or spelled with \\u escapes, no for a plain answer', () => {
    registerSecret(KEY);
    expect(jsonMayCarrySecret(JSON.stringify({ title: `x ${KEY}` }))).toBe(true);
    expect(jsonMayCarrySecret('{"title":"\\u0070bk"}')).toBe(true);
    expect(jsonMayCarrySecret(JSON.stringify({ title: 'He said "buy" / "hold"', body: 'é' }))).toBe(false);
  });

  it('looks at \\" and \\/ only when a key holds a character JSON escapes that way', () => {
    registerSecret(KEY);
    expect(jsonMayCarrySecret('{"a":"\\/x\\""}')).toBe(false);
    registerSecret('sk_with/slash_0123456789');
    expect(jsonMayCarrySecret('{"a":"\\/x"}')).toBe(true);
  });
});
