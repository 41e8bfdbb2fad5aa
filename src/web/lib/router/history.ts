import { type Location, type Path, type To, createPath, resolveTo } from './paths';
import {
  ErrorResponse,
  type LazyRouteResult,
  type RouteMatch,
  type RouteObject,
  matchRoutes,
} from './matching';

/** Where ScrollRestoration keeps the scroll position of each history entry across reloads. */
export const SCROLL_STORAGE_KEY = 'scaffale-scroll-positions';

export type NavigationType = 'POP' | 'PUSH' | 'REPLACE';
export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
  preventScrollReset?: boolean;
}
export interface RouterState {
  location: Location;
  matches: RouteMatch[];
  /** The boundary's index in `matches` and what it shows. */
  error: { index: number; value: unknown } | null;
  action: NavigationType;
  /** A position to restore (back/forward, reload), else null. */
  restoreScroll: number | null;
  preventScrollReset: boolean;
  initialized: boolean;
}
export interface Router {
  state: RouterState;
  routes: RouteObject[];
  navigate(to: To | number, options?: NavigateOptions): void;
  subscribe(listener: (state: RouterState) => void): () => void;
  /** Scroll positions by location key (ScrollRestoration saves them across reloads). */
  scrollPositions: Record<string, number>;
}

interface HistoryState {
  usr?: unknown;
  key?: string;
  idx?: number;
}

const createKey = () => Math.random().toString(36).substring(2, 10);

export function createBrowserRouter(routes: RouteObject[]): Router {
  const loaded = new WeakMap<RouteObject, LazyRouteResult>();
  const loading = new WeakMap<RouteObject, Promise<LazyRouteResult>>();
  const listeners = new Set<(state: RouterState) => void>();
  let navigation = 0;

  // Every entry this app writes carries its key and index; the first one gets them now.
  const readHistory = (): HistoryState => (window.history.state as HistoryState | null) ?? {};
  let idx = readHistory().idx ?? 0;
  const windowLocation = (): Location => {
    const { pathname, search, hash } = window.location;
    const entry = readHistory();
    return { pathname, search, hash, state: entry.usr ?? null, key: entry.key ?? 'default' };
  };
  if (readHistory().key == null || readHistory().idx == null)
    window.history.replaceState(
      { ...readHistory(), key: readHistory().key ?? createKey(), idx },
      '',
    );

  // Scroll positions by entry, kept across reloads (ScrollRestoration writes them on page hide).
  let scrollPositions: Record<string, number> = {};
  try {
    scrollPositions = JSON.parse(sessionStorage.getItem(SCROLL_STORAGE_KEY) ?? '{}') as Record<
      string,
      number
    >;
  } catch {
    // No storage (a private window) or an unreadable entry: nothing to restore.
  }

  const router: Router = {
    routes,
    scrollPositions,
    state: {
      location: windowLocation(),
      matches: [],
      error: null,
      action: 'POP',
      restoreScroll: null,
      preventScrollReset: false,
      initialized: false,
    },
    navigate(to, options = {}) {
      if (typeof to === 'number') {
        window.history.go(to);
        return;
      }
      const path = resolveTo(to, router.state.location.pathname);
      void go(options.replace ? 'REPLACE' : 'PUSH', path, options);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };

  const routeOf = (route: RouteObject): RouteObject => {
    const result = loaded.get(route);
    return result ? { ...route, ...result, lazy: undefined } : route;
  };

  /** Runs the `lazy()` of the matched routes not loaded yet; the first failure, if any. */
  async function load(matches: RouteMatch[]): Promise<{ index: number; value: unknown } | null> {
    const results = await Promise.all(
      matches.map(async ({ route }, index) => {
        if (!route.lazy || loaded.has(route)) return null;
        let promise = loading.get(route);
        if (!promise) {
          promise = route.lazy();
          loading.set(route, promise);
        }
        try {
          loaded.set(route, await promise);
          return null;
        } catch (value) {
          // Not kept: the next navigation tries again (a chunk may fail on a flaky network).
          loading.delete(route);
          return { index, value };
        }
      }),
    );
    return results.find((r) => r !== null) ?? null;
  }

  async function go(
    action: NavigationType,
    path: Path,
    { state = null, preventScrollReset = false }: NavigateOptions = {},
  ) {
    const id = ++navigation;
    let matches = matchRoutes(routes, path.pathname);
    let failure: { index: number; value: unknown } | null = null;
    if (!matches) {
      matches = [{ route: routes[0], params: {} }];
      failure = {
        index: 0,
        value: new ErrorResponse(404, 'Not Found', `No route matches URL "${path.pathname}"`),
      };
    } else if (matches.some(({ route }) => route.lazy && !loaded.has(route))) {
      failure = await load(matches);
      if (id !== navigation) return; // a later navigation won
    }
    if (failure) {
      // The nearest route with an errorElement at or above the failing one shows the error.
      let index = failure.index;
      while (index > 0 && !matches[index].route.errorElement) index--;
      failure = { index, value: failure.value };
      matches = matches.slice(0, index + 1);
    }

    const previous = router.state;
    if (previous.initialized) router.scrollPositions[previous.location.key] = window.scrollY;
    let location: Location;
    if (action === 'POP') location = windowLocation();
    else {
      location = { ...path, state, key: createKey() };
      if (action === 'PUSH') idx++;
      const entry: HistoryState = { usr: state, key: location.key, idx };
      const url = createPath(path);
      if (action === 'PUSH') window.history.pushState(entry, '', url);
      else window.history.replaceState(entry, '', url);
    }
    const saved = router.scrollPositions[location.key];
    router.state = {
      location,
      matches: matches.map((m) => ({ ...m, route: routeOf(m.route) })),
      error: failure,
      action,
      restoreScroll: action === 'POP' && typeof saved === 'number' ? saved : null,
      preventScrollReset,
      initialized: true,
    };
    listeners.forEach((listener) => listener(router.state));
  }

  window.addEventListener('popstate', () => {
    const entry = readHistory();
    if (entry.key == null) {
      // A new entry the browser made (a `#fragment` link): give it a key and the next index.
      window.history.replaceState({ usr: null, key: createKey(), idx: idx + 1 }, '');
    }
    idx = readHistory().idx ?? 0;
    const { pathname, search, hash } = window.location;
    void go('POP', { pathname, search, hash });
  });

  const { pathname, search, hash } = window.location;
  void go('POP', { pathname, search, hash });
  return router;
}
