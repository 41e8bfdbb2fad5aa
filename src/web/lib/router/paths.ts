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
