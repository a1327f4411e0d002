import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '@/lib/digest';
import { fingerprintOfKey } from '@/lib/store/apiKey';

const nodeSha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

describe('sha256Hex', () => {
  it.each([
    ['empty', new Uint8Array()],
    ['text', new TextEncoder().encode('playbook')],
    ['every byte value', Uint8Array.from({ length: 256 }, (_, index) => index)],
  ])('%s', async (_name, bytes) => {
    expect(await sha256Hex(bytes)).toBe(nodeSha256(bytes));
  });

  it('hashes only the bytes of a view, not its whole buffer', async () => {
    const buffer = new TextEncoder().encode('xxhello worldxx');
    expect(await sha256Hex(buffer.subarray(2, 13))).toBe(nodeSha256('hello world'));
  });
});

describe('API key fingerprint', () => {
  it('is the first 16 hex digits of the key’s SHA-256, so confirmations stored before still match', async () => {
    const key = 'sk_live_0123456789abcdef';
    expect(await fingerprintOfKey(key)).toBe(nodeSha256(key).slice(0, 16));
  });
});
