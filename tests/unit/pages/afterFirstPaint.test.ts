import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { afterFirstPaint } from '@/lib/pages/useAsync';

/** A PerformanceObserver of a browser with paint timing, whose entries the test delivers. */
function paintTiming() {
  const observers: { callback: PerformanceObserverCallback; disconnected: boolean }[] = [];
  class FakeObserver {
    static supportedEntryTypes = ['element', 'paint'];
    private readonly record: (typeof observers)[number];
    constructor(callback: PerformanceObserverCallback) {
      this.record = { callback, disconnected: false };
      observers.push(this.record);
    }
    observe() {}
    disconnect() {
      this.record.disconnected = true;
    }
  }
  vi.stubGlobal('PerformanceObserver', FakeObserver);
  const paint = (name: string) => {
    for (const observer of observers.filter((each) => !each.disconnected)) {
      const entries = [{ name, entryType: 'paint', startTime: 40 }] as PerformanceEntry[];
      const list = { getEntriesByName: (wanted: string) => entries.filter((entry) => entry.name === wanted) };
      observer.callback(list as PerformanceObserverEntryList, {} as PerformanceObserver);
    }
  };
  return { paint, observers };
}

function settled(promise: Promise<void>): () => boolean {
  let done = false;
  void promise.then(() => (done = true));
  return () => done;
}

const aTask = () => new Promise((resolve) => setTimeout(resolve, 5));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('afterFirstPaint', () => {
  it('waits for the first contentful paint, not for a frame or a paint without content', async () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    const timing = paintTiming();
    const done = settled(afterFirstPaint());
    for (const callback of frames.splice(0)) callback(performance.now());
    timing.paint('first-paint');
    await aTask();
    expect(done()).toBe(false);
    timing.paint('first-contentful-paint');
    await aTask();
    expect(done()).toBe(true);
    expect(timing.observers.every((observer) => observer.disconnected)).toBe(true);
    // The later fallback finds it done: nothing runs twice.
    timing.paint('first-contentful-paint');
  });

  it('waits for a frame where the browser reports no paint timing', async () => {
    vi.stubGlobal(
      'PerformanceObserver',
      class {
        static supportedEntryTypes = ['mark', 'measure'];
      },
    );
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    const done = settled(afterFirstPaint());
    await aTask();
    expect(done()).toBe(false);
    for (const callback of frames.splice(0)) callback(performance.now());
    await aTask();
    expect(done()).toBe(true);
  });
});

describe('afterFirstPaint, when a frame is drawn but its paint never reported', () => {
  it('waits half a second after that frame, not forever', async () => {
    vi.useFakeTimers();
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    paintTiming();
    const done = settled(afterFirstPaint());
    await vi.advanceTimersByTimeAsync(2_000);
    expect(done()).toBe(false);
    for (const callback of frames.splice(0)) callback(performance.now());
    await vi.advanceTimersByTimeAsync(400);
    expect(done()).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    expect(done()).toBe(true);
  });
});
