import {
  Component,
  createContext,
  createElement,
  startTransition,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { type Location, type To, createPath, resolveTo } from './paths';
import type { NavigateOptions, NavigationType, Router, RouterState } from './history';
import { RouterContext } from './context';

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
