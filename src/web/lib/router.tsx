/**
 * Our own router, in a few KB, imported as `@web/lib/router` (not under react-router's name: its
 * documentation describes that library, not this file). It keeps the names of the subset of
 * react-router's API the app uses, with the same behaviour as react-router 7's data router:
 * - matching: nested routes ranked by react-router's score (static > `:param` > `*`, index routes),
 *   case-insensitive, trailing slash tolerated, params decoded and merged along the branch;
 * - `lazy` routes: the current page stays until the next route's `lazy()` has resolved (once per
 *   route; a failure is retried next time), the last navigation wins, the state update is a
 *   transition; errors of `lazy` or of rendering show the nearest `errorElement`;
 * - history entries carry `{usr, key, idx}` as react-router's (pages read `history.state.idx`);
 * - ScrollRestoration: top on push/replace (unless `preventScrollReset`), the saved position on
 *   back/forward and reload, the `#hash` element first.
 * Not supported: loaders and actions, forms, fetchers, blockers, basename, relative paths resolve
 * against the URL (react-router's default is the route hierarchy; the app uses absolute paths,
 * `?search` and '.').
 */
import {
  Component,
  createContext,
  createElement,
  forwardRef,
  startTransition,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useState,
  type AnchorHTMLAttributes,
  type ComponentType,
  type CSSProperties,
  type MouseEvent,
  type ReactNode,
} from 'react';

// ---------------------------------------------------------------------------------------------
// Paths

export interface Path {
  pathname: string;
  search: string;
  hash: string;
}
export type To = string | Partial<Path>;
export interface Location extends Path {
  state: unknown;
  key: string;
}

export function parsePath(path: string): Partial<Path> {
  const parsed: Partial<Path> = {};
  const hashAt = path.indexOf('#');
  if (hashAt >= 0) {
    parsed.hash = path.slice(hashAt);
    path = path.slice(0, hashAt);
  }
  const searchAt = path.indexOf('?');
  if (searchAt >= 0) {
    parsed.search = path.slice(searchAt);
    path = path.slice(0, searchAt);
  }
  if (path) parsed.pathname = path;
  return parsed;
}

const normalize = (part: string | undefined, mark: string) =>
  !part || part === mark ? '' : part.startsWith(mark) ? part : mark + part;

export const createPath = ({ pathname = '/', search, hash }: Partial<Path>) =>
  pathname + normalize(search, '?') + normalize(hash, '#');

/**
 * `to` against the current pathname, as react-router's resolveTo: an absolute path as is, no
 * pathname (`?q=1`, `#top`) or '.' the current one (search and hash come from `to` only),
 * relative segments against the URL.
 */
export function resolveTo(to: To, fromPathname: string): Path {
  const { pathname: toPathname, search, hash } = typeof to === 'string' ? parsePath(to) : to;
  let pathname = fromPathname;
  if (toPathname?.startsWith('/')) pathname = toPathname;
  else if (toPathname) {
    const segments = fromPathname.replace(/\/+$/, '').split('/');
    for (const segment of toPathname.split('/')) {
      if (segment === '..') {
        if (segments.length > 1) segments.pop();
      } else if (segment !== '.') segments.push(segment);
    }
    pathname = segments.length > 1 ? segments.join('/') : '/';
    // "." and "dir/" keep a trailing slash, as react-router does.
    if (
      (toPathname.endsWith('/') || (toPathname === '.' && fromPathname.endsWith('/'))) &&
      !pathname.endsWith('/')
    )
      pathname += '/';
  }
  return { pathname, search: normalize(search, '?'), hash: normalize(hash, '#') };
}

/** NavLink's rule: the same path, or (without `end`) one below it; "/" only matches itself. */
export function isActivePath(locationPathname: string, toPathname: string, end = false) {
  const here = locationPathname.toLowerCase();
  const to = toPathname.toLowerCase();
  const slashAt = to !== '/' && to.endsWith('/') ? to.length - 1 : to.length;
  return here === to || (!end && here.startsWith(to) && here.charAt(slashAt) === '/');
}

// ---------------------------------------------------------------------------------------------
// Routes and matching

export interface LazyRouteResult {
  Component?: ComponentType | null;
  element?: ReactNode;
  errorElement?: ReactNode;
}
export interface RouteObject extends LazyRouteResult {
  path?: string;
  index?: boolean;
  children?: RouteObject[];
  lazy?: () => Promise<LazyRouteResult>;
}
export type Params = Readonly<Record<string, string | undefined>>;
export interface RouteMatch {
  route: RouteObject;
  params: Params;
}

interface Branch {
  routes: RouteObject[];
  score: number;
  order: number[];
  regexp: RegExp;
  names: string[];
}

/** react-router's computeScore: more segments, static ones above params above a splat. */
function score(path: string, index: boolean | undefined) {
  const segments = path.split('/');
  let total = segments.length + (segments.includes('*') ? -2 : 0) + (index ? 2 : 0);
  for (const s of segments) if (s !== '*') total += /^:[\w-]+$/.test(s) ? 3 : s === '' ? 1 : 10;
  return total;
}

/** react-router's compilePath, for a whole branch's path (always to the end of the URL). */
function compile(path: string) {
  const names: string[] = [];
  let source =
    '^' +
    path
      .replace(/\/*\*?$/, '')
      .replace(/^\/*/, '/')
      .replace(/[\\.*+^${}|()[\]]/g, '\\$&')
      .replace(/\/:([\w-]+)/g, (_, name: string) => {
        names.push(name);
        return '/([^\\/]+)';
      });
  if (path.endsWith('*')) {
    names.push('*');
    source += path === '*' || path === '/*' ? '(.*)$' : '(?:\\/(.+)|\\/*)$';
  } else source += '\\/*$';
  return { regexp: new RegExp(source, 'i'), names };
}

const branchesOf = new WeakMap<RouteObject[], Branch[]>();

/** Every route that can end a match (those with a path or `index`), best score first. */
export function flattenRoutes(
  routes: RouteObject[],
  branches: Branch[] = [],
  parents: RouteObject[] = [],
  parentPath = '',
  parentOrder: number[] = [],
): Branch[] {
  routes.forEach((route, i) => {
    const path = `${parentPath}/${route.path ?? ''}`.replace(/\/\/+/g, '/');
    const chain = [...parents, route];
    const order = [...parentOrder, i];
    if (route.children?.length) flattenRoutes(route.children, branches, chain, path, order);
    if (route.path == null && !route.index) return;
    branches.push({ routes: chain, score: score(path, route.index), order, ...compile(path) });
  });
  return branches;
}

const compareOrder = (a: number[], b: number[]) =>
  // Siblings keep their order; otherwise react-router leaves the ranking to the score alone.
  a.length === b.length && a.slice(0, -1).every((n, i) => n === b[i])
    ? a[a.length - 1] - b[b.length - 1]
    : 0;

const decode = (value: string) => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

/** The matched branch, root first, every match with the params of the whole branch. */
export function matchRoutes(routes: RouteObject[], pathname: string): RouteMatch[] | null {
  let branches = branchesOf.get(routes);
  if (!branches) {
    branches = flattenRoutes(routes).sort(
      (a, b) => b.score - a.score || compareOrder(a.order, b.order),
    );
    branchesOf.set(routes, branches);
  }
  for (const branch of branches) {
    const found = branch.regexp.exec(pathname);
    if (!found) continue;
    const params: Record<string, string | undefined> = {};
    branch.names.forEach((name, i) => {
      const value = found[i + 1];
      params[name] = value === undefined ? undefined : decode(value);
    });
    return branch.routes.map((route) => ({ route, params }));
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Errors

/** What react-router throws when no route matches; RouteError shows the not-found page for it. */
export class ErrorResponse {
  internal = true;
  constructor(
    public status: number,
    public statusText: string,
    public data: unknown,
  ) {}
}

export function isRouteErrorResponse(error: unknown): error is ErrorResponse {
  const e = error as ErrorResponse | null;
  return (
    e != null &&
    typeof e.status === 'number' &&
    typeof e.statusText === 'string' &&
    typeof e.internal === 'boolean' &&
    'data' in e
  );
}

// ---------------------------------------------------------------------------------------------
// The router: history, lazy routes, state

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
const SCROLL_STORAGE_KEY = 'scaffale-scroll-positions';

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

// ---------------------------------------------------------------------------------------------
// React

interface RouterContextValue {
  router: Router;
  state: RouterState;
}
const RouterContext = createContext<RouterContextValue>(null as unknown as RouterContextValue);
const OutletContext = createContext<ReactNode>(null);
const RouteErrorContext = createContext<unknown>(undefined);

interface BoundaryProps {
  location: Location;
  error: unknown;
  fallback: ReactNode;
  children: ReactNode;
}
interface BoundaryState {
  location: Location;
  error: unknown;
}

/** A route's errorElement in place of its element when rendering throws; reset by navigation. */
class RouteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { location: this.props.location, error: this.props.error };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState) {
    if (state.location !== props.location) return { location: props.location, error: props.error };
    return {
      location: state.location,
      error: props.error !== undefined ? props.error : state.error,
    };
  }
  override render() {
    return this.state.error !== undefined
      ? createElement(RouteErrorContext.Provider, { value: this.state.error }, this.props.fallback)
      : this.props.children;
  }
}

function renderMatches({ matches, error, location }: RouterState): ReactNode {
  let outlet: ReactNode = null;
  for (let i = matches.length - 1; i >= 0; i--) {
    const { route } = matches[i];
    const element =
      route.element !== undefined
        ? route.element
        : route.Component
          ? createElement(route.Component)
          : createElement(Outlet);
    const rendered: ReactNode = createElement(OutletContext.Provider, { value: outlet }, element);
    outlet = route.errorElement
      ? createElement(RouteErrorBoundary, {
          location,
          error: error?.index === i ? error.value : undefined,
          fallback: route.errorElement,
          children: rendered,
        })
      : rendered;
  }
  return outlet;
}

export function RouterProvider({ router }: { router: Router }) {
  const [state, setState] = useState(router.state);
  useLayoutEffect(() => {
    const update = (next: RouterState) => startTransition(() => setState(next));
    update(router.state);
    return router.subscribe(update);
  }, [router]);
  const value = useMemo(() => ({ router, state }), [router, state]);
  // As react-router without a HydrateFallback: nothing until the first page's code is there.
  if (!state.initialized) return null;
  return createElement(RouterContext.Provider, { value }, renderMatches(state));
}

export const useLocation = (): Location => useContext(RouterContext).state.location;
export const useNavigationType = (): NavigationType => useContext(RouterContext).state.action;

export function useParams<
  T extends Record<string, string | undefined> = Record<string, string | undefined>,
>(): Readonly<Partial<T>> {
  const { matches } = useContext(RouterContext).state;
  return (matches[matches.length - 1]?.params ?? {}) as Partial<T>;
}

export type NavigateFunction = {
  (to: To, options?: NavigateOptions): void;
  (delta: number): void;
};

/** The router's own navigate: one identity for the app's lifetime. */
export const useNavigate = (): NavigateFunction =>
  useContext(RouterContext).router.navigate as NavigateFunction;

export const useRouteError = (): unknown => useContext(RouteErrorContext);

export function Outlet() {
  return useContext(OutletContext);
}

export function Navigate({ to, replace, state }: { to: To; replace?: boolean; state?: unknown }) {
  const navigate = useNavigate();
  const path = createPath(resolveTo(to, useLocation().pathname));
  useEffect(() => navigate(path, { replace, state }), [navigate, path, replace, state]);
  return null;
}

export type URLSearchParamsInit =
  string | [string, string][] | Record<string, string | string[]> | URLSearchParams;

/** react-router's createSearchParams: an object's array values become repeated keys. */
export function createSearchParams(init: URLSearchParamsInit = ''): URLSearchParams {
  if (typeof init === 'string' || Array.isArray(init) || init instanceof URLSearchParams)
    return new URLSearchParams(init);
  return new URLSearchParams(
    Object.entries(init).flatMap(([key, value]) =>
      Array.isArray(value) ? value.map((v) => [key, v]) : [[key, value]],
    ),
  );
}

export type SetURLSearchParams = (
  next: URLSearchParamsInit | ((prev: URLSearchParams) => URLSearchParamsInit),
  options?: NavigateOptions,
) => void;

const setters = new WeakMap<Router, SetURLSearchParams>();

export function useSearchParams(): [URLSearchParams, SetURLSearchParams] {
  const { router, state } = useContext(RouterContext);
  const search = state.location.search;
  const params = useMemo(() => new URLSearchParams(search), [search]);
  let set = setters.get(router);
  if (!set) {
    // The function form gets the latest URL's params, and the setter never changes identity.
    set = (next, options) => {
      const current = new URLSearchParams(router.state.location.search);
      const value = typeof next === 'function' ? next(current) : next;
      router.navigate(`?${createSearchParams(value)}`, options);
    };
    setters.set(router, set);
  }
  return [params, set];
}

// ---------------------------------------------------------------------------------------------
// Links

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: To;
  replace?: boolean;
  state?: unknown;
  preventScrollReset?: boolean;
  /** A full document load, as a plain anchor. */
  reloadDocument?: boolean;
}

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(
  { to, replace, state, preventScrollReset, reloadDocument, onClick, target, ...rest },
  ref,
) {
  const { router, state: routerState } = useContext(RouterContext);
  const external = typeof to === 'string' && EXTERNAL.test(to);
  const href = external ? (to as string) : createPath(resolveTo(to, routerState.location.pathname));
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      external ||
      reloadDocument ||
      event.button !== 0 ||
      (target && target !== '_self') ||
      event.metaKey ||
      event.altKey ||
      event.ctrlKey ||
      event.shiftKey
    )
      return;
    event.preventDefault();
    // A link to where we are replaces the entry, as react-router's.
    const same = createPath(router.state.location) === href;
    router.navigate(href, { replace: replace ?? same, state, preventScrollReset });
  };
  return <a {...rest} ref={ref} href={href} target={target} onClick={handleClick} />;
});

export interface NavLinkRenderProps {
  isActive: boolean;
  isPending: boolean;
  isTransitioning: boolean;
}
export interface NavLinkProps extends Omit<LinkProps, 'className' | 'style' | 'children'> {
  end?: boolean;
  className?: string | ((props: NavLinkRenderProps) => string | undefined);
  style?: CSSProperties | ((props: NavLinkRenderProps) => CSSProperties | undefined);
  children?: ReactNode | ((props: NavLinkRenderProps) => ReactNode);
}

/** A Link with `aria-current="page"` and the `active` class while its path is the current one. */
export const NavLink = forwardRef<HTMLAnchorElement, NavLinkProps>(function NavLink(
  { end, className, style, children, ...rest },
  ref,
) {
  const { pathname } = useLocation();
  const isActive = isActivePath(pathname, resolveTo(rest.to, pathname).pathname, end);
  const props: NavLinkRenderProps = { isActive, isPending: false, isTransitioning: false };
  const classes =
    typeof className === 'function'
      ? className(props)
      : [className, isActive ? 'active' : null].filter(Boolean).join(' ') || undefined;
  return (
    <Link
      {...rest}
      ref={ref}
      aria-current={isActive ? 'page' : undefined}
      className={classes}
      style={typeof style === 'function' ? style(props) : style}
    >
      {typeof children === 'function' ? children(props) : children}
    </Link>
  );
});

// ---------------------------------------------------------------------------------------------
// Scroll restoration

/**
 * On a new entry the top of the page (or the `#hash` element), unless `preventScrollReset`; back,
 * forward and reload the position the entry was left at (kept in sessionStorage on page hide).
 */
export function ScrollRestoration() {
  const { router, state } = useContext(RouterContext);
  useLayoutEffect(() => {
    window.history.scrollRestoration = 'manual';
    const onPageHide = () => {
      router.scrollPositions[router.state.location.key] = window.scrollY;
      try {
        sessionStorage.setItem(SCROLL_STORAGE_KEY, JSON.stringify(router.scrollPositions));
      } catch {
        // Storage full or unavailable: the positions are lost with the page, nothing else.
      }
      window.history.scrollRestoration = 'auto';
    };
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      window.history.scrollRestoration = 'auto';
    };
  }, [router]);

  const { location, restoreScroll, preventScrollReset } = state;
  useLayoutEffect(() => {
    if (restoreScroll != null) {
      window.scrollTo(0, restoreScroll);
      return;
    }
    if (location.hash) {
      const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (target) {
        target.scrollIntoView();
        return;
      }
    }
    if (!preventScrollReset) window.scrollTo(0, 0);
  }, [location, restoreScroll, preventScrollReset]);
  return null;
}
