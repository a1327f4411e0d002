import { describe, expect, it } from 'vitest';
import { customOrigins } from '@/lib/pages/options/validate';

describe('customOrigins', () => {
  it('keeps distinct non-loopback origins only', () => {
    expect(
      customOrigins([
        'https://a.example/x',
        'https://a.example/api',
        'http://127.0.0.1:8787',
        'nonsense',
        'https://b.example',
      ]),
    ).toEqual(['https://a.example', 'https://b.example']);
  });
});
