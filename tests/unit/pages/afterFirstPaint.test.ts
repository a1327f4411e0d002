import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterFirstPaint } from '@/lib/pages/firstPaint';

/**
 * A page's frames and its paint timing, driven by the test: `frame()` runs the animation-frame
 * callbacks, `paint(name)` records a paint entry and reports it to observers; entries recorded
 * before an observer asked with `buffered: true` are reported to it in a later task, as browsers do.
 */
function page({ paintTiming = true } = {}) {
  let frames: FrameRequestCallback[] = [];
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
  const recorded: string[] = [];
  const observers: { report: (names: string[]) => void; disconnected: boolean }[] = [];
  class FakeObserver {
    static supportedEntryTypes = paintTiming ? ['element', 'paint'] : ['mark', 'measure'];
    private readonly record: (typeof observers)[number];
    constructor(callback: PerformanceObserverCallback) {
      const report = (names: string[]) => {
        const list = { getEntriesByName: (wanted: string) => names.filter((name) => name === wanted) };
        callback(list as unknown as PerformanceObserverEntryList, this as unknown as PerformanceObserver);
      };
      this.record = { report, disconnected: false };
      observers.push(this.record);
    }
    observe(options: PerformanceObserverInit) {
      const past = [...recorded];
      if (options.buffered && past.length > 0)
        setTimeout(() => !this.record.disconnected && this.record.report(past), 0);
    }
    disconnect() {
      this.record.disconnected = true;
    }
  }
  vi.stubGlobal('PerformanceObserver', FakeObserver);
  return {
    observers,
    frame() {
      const due = frames;
      frames = [];
      for (const callback of due) callback(performance.now());
    },
    paint(name: string) {
      recorded.push(name);
      for (const observer of observers.filter((each) => !each.disconnected)) observer.report([name]);
    },
  };
}

function settled(promise: Promise<void>): () => boolean {
  let done = false;
  void promise.then(() => (done = true));
  return () => done;
}

const tasks = (ms = 1) => vi.advanceTimersByTimeAsync(ms);

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('afterFirstPaint', () => {
  it('waits for the first contentful paint and a frame after it, not for a frame or a paint without content', async () => {
    const browser = page();
    const done = settled(afterFirstPaint());
    browser.frame();
    browser.paint('first-paint');
    await tasks();
    expect(done()).toBe(false);
    browser.paint('first-contentful-paint');
    await tasks();
    expect(done()).toBe(false);
    browser.frame();
    await tasks();
    expect(done()).toBe(true);
    expect(browser.observers.every((observer) => observer.disconnected)).toBe(true);
    // The fallback, when its time comes, finds it done: nothing runs twice.
    browser.frame();
    await tasks(1_000);
  });

  it('on a page that painted before it was asked, resolves after the next frame', async () => {
    const browser = page();
    browser.paint('first-contentful-paint');
    const done = settled(afterFirstPaint());
    await tasks();
    browser.frame();
    await tasks();
    expect(done()).toBe(true);
  });

  it('on a hidden page (no frames), waits even after its paint', async () => {
    const browser = page();
    browser.paint('first-contentful-paint');
    const done = settled(afterFirstPaint());
    await tasks(5_000);
    expect(done()).toBe(false);
    browser.frame();
    await tasks();
    expect(done()).toBe(true);
  });

  it('when frames are drawn but their paint never reported, goes ahead half a second after the first', async () => {
    const browser = page();
    const done = settled(afterFirstPaint());
    await tasks(2_000);
    browser.frame();
    await tasks(400);
    browser.frame();
    expect(done()).toBe(false);
    await tasks(200);
    browser.frame();
    await tasks();
    expect(done()).toBe(true);
  });

  it('without paint timing, waits for a frame', async () => {
    const browser = page({ paintTiming: false });
    const done = settled(afterFirstPaint());
    await tasks(1_000);
    expect(done()).toBe(false);
    browser.frame();
    await tasks();
    expect(done()).toBe(true);
  });
});
