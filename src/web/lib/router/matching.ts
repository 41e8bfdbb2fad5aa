import type { ComponentType, ReactNode } from 'react';

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
