import { describe, expect, it } from 'vitest';
import { originsNeedingAccess } from '@/lib/pages/options/accessOrigins';

describe('originsNeedingAccess', () => {
  it('keeps distinct non-loopback origins only', () => {
    expect(
      originsNeedingAccess([
        'https://a.example/x',
        'https://a.example/api',
        'http://127.0.0.1:8787',
        'nonsense',
        'https://b.example',
      ]),
    ).toEqual(['https://a.example', 'https://b.example']);
  });
});
