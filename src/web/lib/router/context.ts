import { createContext } from 'react';
import type { Router, RouterState } from './history';

// Shared by the router's own modules; not exported from index.ts.

/** Where ScrollRestoration keeps the scroll position of each history entry across reloads. */
export const SCROLL_STORAGE_KEY = 'scaffale-scroll-positions';

interface RouterContextValue {
  router: Router;
  state: RouterState;
}
export const RouterContext = createContext<RouterContextValue>(
  null as unknown as RouterContextValue,
);
