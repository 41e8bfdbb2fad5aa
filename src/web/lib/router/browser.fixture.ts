import { vi } from 'vitest';
import type { createBrowserRouter, RouterState } from '.';

// For the router's tests: a browser as far as the router sees one, without a DOM.

/** A browser's history, location and storage, enough for the router. */
export function fakeBrowser(url: string, state: unknown = null) {
  const entries: Array<{ url: URL; state: unknown }> = [{ url: new URL(url, 'http://x'), state }];
  let index = 0;
  const listeners: Array<() => void> = [];
  const win = {
    scrollY: 0,
    get location() {
      const { pathname, search, hash } = entries[index].url;
      return { pathname, search, hash };
    },
    history: {
      get state() {
        return entries[index].state;
      },
      pushState(s: unknown, _t: string, u: string) {
        entries.splice(index + 1, entries.length, {
          url: new URL(u, entries[index].url),
          state: s,
        });
        index++;
      },
      replaceState(s: unknown, _t: string, u?: string) {
        entries[index] = { url: u ? new URL(u, entries[index].url) : entries[index].url, state: s };
      },
      go(delta: number) {
        index += delta;
        listeners.forEach((l) => l());
      },
      get length() {
        return entries.length;
      },
    },
    addEventListener: (type: string, listener: () => void) => {
      if (type === 'popstate') listeners.push(listener);
    },
  };
  vi.stubGlobal('window', win);
  vi.stubGlobal('sessionStorage', { getItem: () => null, setItem: () => undefined });
  return win;
}

/** Resolves when the router publishes its next state (after `action`, which may publish at once). */
export const nextState = (router: ReturnType<typeof createBrowserRouter>, action = () => {}) =>
  new Promise<RouterState>((done) => {
    const stop = router.subscribe((s) => {
      stop();
      done(s);
    });
    action();
  });
