import { beforeEach, describe, expect, it } from 'vitest';
import { clearUnread } from '@/lib/events';
import { readCursor, readFeed, updateCursor, writeFeed } from '@/lib/events/feed';
import { sameValue } from '@/lib/store/sameValue';
import { clearState, readState, writeState } from '@/lib/store/state';
import { recordIdbWrites } from '../../fixtures/idbWrites';

beforeEach(() => clearState());

const statePuts = (writes: ReturnType<typeof recordIdbWrites>) =>
  writes.filter((write) => write.store === 'state' && write.op === 'put');

describe('writeState (a write that changes nothing is not made)', () => {
  it('does not put a value equal to the stored one, and puts one that differs anywhere', async () => {
    const value = { events: [{ id: 'a', data: { n: 1, tags: ['x'] } }], unread: 2 };
    await writeState('k', value);
    const writes = recordIdbWrites();
    await writeState('k', structuredClone(value));
    expect(statePuts(writes)).toEqual([]);
    await writeState('k', { events: [{ id: 'a', data: { n: 1, tags: ['y'] } }], unread: 2 });
    expect(statePuts(writes)).toHaveLength(1);
    expect(await readState('k')).toEqual({ events: [{ id: 'a', data: { n: 1, tags: ['y'] } }], unread: 2 });
  });

  it('writes a first value, and any value under a new key', async () => {
    const writes = recordIdbWrites();
    await writeState('a', 1);
    await writeState('b', 1);
    expect(statePuts(writes).map((write) => write.key)).toEqual(['a', 'b']);
    expect(await readState('b')).toBe(1);
  });

  it('an unchanged events cursor or an unread count already at zero writes nothing', async () => {
    await readCursor(() => Date.UTC(2026, 0, 1));
    await updateCursor({ cursor: 'c1', lastEventId: 'e1' });
    await writeFeed({ events: [], unread: 0 });
    const writes = recordIdbWrites();
    await updateCursor({ cursor: 'c1' });
    await updateCursor({});
    await clearUnread();
    expect(statePuts(writes)).toEqual([]);
    await updateCursor({ cursor: 'c2' });
    expect(statePuts(writes)).toHaveLength(1);
    expect(await readFeed()).toEqual({ events: [], unread: 0 });
  });
});

describe('sameValue', () => {
  it.each([
    [1, 1, true],
    [1, '1', false],
    [Number.NaN, Number.NaN, true],
    [null, undefined, false],
    [{ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 }, true],
    [{ a: 1 }, { a: 1, b: undefined }, false],
    [{ a: undefined }, { b: undefined }, false],
    [[1, 2], [2, 1], false],
    [[1], { 0: 1, length: 1 }, false],
    [{}, [], false],
    [new Date(0), new Date(0), false],
  ])('%j and %j: %s', (a, b, same) => {
    expect(sameValue(a, b)).toBe(same);
    expect(sameValue(b, a)).toBe(same);
  });
});
