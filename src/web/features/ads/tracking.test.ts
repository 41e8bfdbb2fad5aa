import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { adTokenFor, sendAdEvent, watchViewability, type ViewabilityEnv } from './tracking';

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

describe('the click token', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('keeps the token an impression is answered with, and sends it with the click', async () => {
    const store = new Map<string, string>();
    const beacons: string[] = [];
    vi.stubGlobal('sessionStorage', {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => store.set(k, v),
    });
    vi.stubGlobal('document', { referrer: '', cookie: '' });
    vi.stubGlobal('navigator', {
      sendBeacon: (_url: string, body: string) => beacons.push(body) > 0,
    });
    const fetch = vi.fn(
      async () => new Response(JSON.stringify({ received: true, token: '2026-03-10.abc' })),
    );
    vi.stubGlobal('fetch', fetch);

    sendAdEvent('ad-1', 'click', 'library');
    expect(JSON.parse(beacons[0])).not.toHaveProperty('token');
    sendAdEvent('ad-1', 'impression', 'library');
    await vi.waitFor(() => expect(adTokenFor('ad-1')).toBe('2026-03-10.abc'));
    expect(fetch).toHaveBeenCalledTimes(1);
    sendAdEvent('ad-1', 'click', 'library');
    expect(JSON.parse(beacons[1])).toMatchObject({ kind: 'click', token: '2026-03-10.abc' });
    // Another ad's click carries no token of this one.
    sendAdEvent('ad-2', 'click', 'library');
    expect(JSON.parse(beacons[2])).not.toHaveProperty('token');
    expect(JSON.parse(store.get('scaffale.adTokens')!)).toEqual({ 'ad-1': '2026-03-10.abc' });
  });
});
