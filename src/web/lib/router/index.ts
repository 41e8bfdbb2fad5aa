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
 *
 * Files: paths.ts (parse, resolve, active path), matching.ts (route ranking and matching, the
 * not-found error), history.ts (createBrowserRouter: history, lazy routes, state), react.tsx
 * (RouterProvider, hooks, Outlet, Navigate, search params), links.tsx (Link, NavLink,
 * ScrollRestoration); context.ts is internal.
 */
export * from './paths';
export * from './matching';
export * from './history';
export * from './react';
export * from './links';
