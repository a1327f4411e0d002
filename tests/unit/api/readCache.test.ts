import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReadCache } from '@/lib/api';
import { captureLogs, fakeClock } from './support';

let restoreLogs: () => void;
beforeEach(async () => {
  restoreLogs = captureLogs().restore;
  await createReadCache().clear();
});
afterEach(() => restoreLogs());

function setup() {
  const clock = fakeClock();
  const cache = createReadCache({ now: clock.now, freshForMs: 30_000 });
  return { cache, clock };
}

describe('read cache', () => {
  it('a miss is undefined; a revalidation stores the value, fresh until freshForMs, then stale', async () => {
    const { cache, clock } = setup();
    expect(await cache.get('status')).toBeUndefined();
    expect(await cache.revalidate('status', () => Promise.resolve({ n: 1 }))).toMatchObject({
      value: { n: 1 },
      stale: false,
    });
    clock.advance(29_999);
    expect(await cache.get('status')).toMatchObject({ value: { n: 1 }, stale: false });
    clock.advance(1);
    expect(await cache.get('status')).toMatchObject({ value: { n: 1 }, stale: true });
    await cache.revalidate('status', () => Promise.resolve({ n: 2 }));
    expect(await cache.get('status')).toMatchObject({ value: { n: 2 }, stale: false });
  });

  it('concurrent revalidations of one key run the loader once', async () => {
    const { cache } = setup();
    let loads = 0;
    const loader = async () => {
      loads++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return loads;
    };
    await Promise.all([
      cache.revalidate('k', loader),
      cache.revalidate('k', loader),
      cache.revalidate('k', loader),
    ]);
    expect(loads).toBe(1);
  });

  it('a failed revalidation keeps the old value', async () => {
    const { cache, clock } = setup();
    await cache.revalidate('k', () => Promise.resolve('old'));
    clock.advance(60_000);
    await expect(cache.revalidate('k', () => Promise.reject(new Error('offline')))).rejects.toThrow(
      'offline',
    );
    expect(await cache.get('k')).toMatchObject({ value: 'old', stale: true });
  });

  it('clear() forgets everything, and a revalidation started before it does not write back', async () => {
    const { cache } = setup();
    await cache.revalidate('a', () => Promise.resolve(1));
    let release: (value: number) => void = () => undefined;
    const pending = cache.revalidate('b', () => new Promise<number>((resolve) => (release = resolve)));
    await cache.clear();
    release(2);
    await pending;
    expect(await cache.get('a')).toBeUndefined();
    expect(await cache.get('b')).toBeUndefined();
  });

  it('survives a worker restart: a new cache sees the value', async () => {
    const { cache, clock } = setup();
    await cache.revalidate('k', () => Promise.resolve('kept'));
    const restarted = createReadCache({ now: clock.now, freshForMs: 30_000 });
    expect(await restarted.get('k')).toMatchObject({ value: 'kept' });
  });
});
