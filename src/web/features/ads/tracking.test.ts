import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchViewability, type ViewabilityEnv } from './tracking';

type Callback = (entries: { isIntersecting: boolean; intersectionRatio: number }[]) => void;

/** A stand-in for the browser: the test decides what is on screen and whether the tab shows. */
function fakeBrowser() {
  let callback: Callback = () => {};
  let options: IntersectionObserverInit | undefined;
  let disconnected = false;
  const listeners = new Set<() => void>();
  const doc = {
    visibilityState: 'visible' as DocumentVisibilityState,
    addEventListener: (_: string, fn: () => void) => listeners.add(fn),
    removeEventListener: (_: string, fn: () => void) => listeners.delete(fn),
  };
  class FakeObserver {
    constructor(cb: Callback, opts?: IntersectionObserverInit) {
      callback = cb;
      options = opts;
    }
    observe() {}
    disconnect() {
      disconnected = true;
    }
  }
  return {
    env: { IntersectionObserver: FakeObserver, document: doc } as unknown as ViewabilityEnv,
    show: (ratio: number) => callback([{ isIntersecting: ratio > 0, intersectionRatio: ratio }]),
    setHidden(hidden: boolean) {
      doc.visibilityState = hidden ? 'hidden' : 'visible';
      for (const fn of [...listeners]) fn();
    },
    options: () => options,
    disconnected: () => disconnected,
  };
}

describe('an impression by the IAB rule', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const el = {} as Element;

  it('needs half of the ad on screen for a full second, and counts once', () => {
    const b = fakeBrowser();
    const seen = vi.fn();
    watchViewability(el, seen, b.env);
    expect(b.options()?.threshold).toBe(0.5);
    b.show(0.49);
    vi.advanceTimersByTime(2000);
    expect(seen).not.toHaveBeenCalled();
    b.show(0.5);
    vi.advanceTimersByTime(999);
    expect(seen).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(seen).toHaveBeenCalledTimes(1);
    expect(b.disconnected()).toBe(true);
    b.show(1);
    vi.advanceTimersByTime(5000);
    expect(seen).toHaveBeenCalledTimes(1);
  });

  it('is cancelled when the ad leaves the screen before the second is up', () => {
    const b = fakeBrowser();
    const seen = vi.fn();
    watchViewability(el, seen, b.env);
    b.show(0.8);
    vi.advanceTimersByTime(600);
    b.show(0.2);
    vi.advanceTimersByTime(600);
    expect(seen).not.toHaveBeenCalled();
    // Back on screen: a new full second is needed.
    b.show(0.7);
    vi.advanceTimersByTime(900);
    expect(seen).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(seen).toHaveBeenCalledTimes(1);
  });

  it('does not count while the tab is hidden', () => {
    const b = fakeBrowser();
    const seen = vi.fn();
    watchViewability(el, seen, b.env);
    b.show(1);
    vi.advanceTimersByTime(500);
    b.setHidden(true);
    vi.advanceTimersByTime(3000);
    expect(seen).not.toHaveBeenCalled();
    b.setHidden(false);
    vi.advanceTimersByTime(1000);
    expect(seen).toHaveBeenCalledTimes(1);
  });

  it('stops watching when the card goes away', () => {
    const b = fakeBrowser();
    const seen = vi.fn();
    const stop = watchViewability(el, seen, b.env);
    b.show(1);
    stop();
    vi.advanceTimersByTime(2000);
    expect(seen).not.toHaveBeenCalled();
    expect(b.disconnected()).toBe(true);
  });
});
