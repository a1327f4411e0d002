import { describe, expect, it } from 'vitest';
import { mergeInPlace } from '@/lib/pages/popup/listMerge';

const row = (id: string, title = id) => ({ id, title });

describe('mergeInPlace', () => {
  it('keeps shown rows in place with fresh content and appends new ones', () => {
    const merged = mergeInPlace([row('a'), row('b')], [row('c'), row('b', 'B2'), row('a', 'A2')]);
    expect(merged).toEqual([row('a', 'A2'), row('b', 'B2'), row('c')]);
  });

  it('keeps a row the service no longer lists until the pointer leaves', () => {
    expect(mergeInPlace([row('a'), row('b')], [row('b')])).toEqual([row('a'), row('b')]);
  });

  it('with nothing shown, is the fresh order', () => {
    expect(mergeInPlace([], [row('b'), row('a')])).toEqual([row('b'), row('a')]);
  });
});
