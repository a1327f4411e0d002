import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRereads, MAX_KEYS } from '@/lib/finance/rereads';

afterEach(() => vi.useRealTimers());

describe('re-reads of a page', () => {
  it('read a burst once, at most once per interval, per key, and drop an overtaken answer', async () => {
    vi.useFakeTimers();
    const answers: Record<string, () => void> = {};
    let reads = 0;
    const applied: [string, number][] = [];
    const rereads = createRereads<string, number>(
      (key) => {
        const read = ++reads;
        return new Promise((resolve) => (answers[key] = () => resolve(read)));
      },
      (key, value) => void applied.push([key, value]),
      { settleMs: 10, intervalMs: 100 },
    );
    for (let call = 0; call < 100; call++) rereads.request('tab');
    await vi.advanceTimersByTimeAsync(10);
    expect(reads).toBe(1);
    answers.tab();
    await vi.advanceTimersByTimeAsync(0);
    expect(applied).toEqual([['tab', 1]]);

    // Another burst right away waits for the interval, then reads once.
    for (let call = 0; call < 100; call++) rereads.request('tab');
    await vi.advanceTimersByTimeAsync(50);
    expect(reads).toBe(1);
    await vi.advanceTimersByTimeAsync(50);
    expect(reads).toBe(2);
    // A request while that read runs: its answer is for an older view and is dropped.
    rereads.request('tab');
    answers.tab();
    await vi.advanceTimersByTimeAsync(0);
    expect(applied).toEqual([['tab', 1]]);
    await vi.advanceTimersByTimeAsync(100);
    expect(reads).toBe(3);
    answers.tab();
    await vi.advanceTimersByTimeAsync(0);
    expect(applied).toEqual([
      ['tab', 1],
      ['tab', 3],
    ]);

    // Keys are independent; a forgotten key reads nothing more.
    rereads.request('other');
    rereads.forget('other');
    await vi.advanceTimersByTimeAsync(1000);
    expect(reads).toBe(3);
  });

  it('remember at most MAX_KEYS keys: the oldest is forgotten first', async () => {
    vi.useFakeTimers();
    const read = vi.fn((key: number) => Promise.resolve(key));
    const rereads = createRereads<number, number>(read, () => undefined, { settleMs: 10, intervalMs: 100 });
    for (let key = 0; key <= MAX_KEYS; key++) rereads.request(key);
    await vi.advanceTimersByTimeAsync(10);
    expect(read).toHaveBeenCalledTimes(MAX_KEYS);
    expect(read).not.toHaveBeenCalledWith(0);
    expect(read).toHaveBeenCalledWith(MAX_KEYS);
  });
});
