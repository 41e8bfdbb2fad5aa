import { createContext } from 'react';
import type { Router, RouterState } from './history';

// Shared by the router's own modules; not exported from index.ts.

interface RouterContextValue {
  router: Router;
  state: RouterState;
}
export const RouterContext = createContext<RouterContextValue>(
  null as unknown as RouterContextValue,
);
