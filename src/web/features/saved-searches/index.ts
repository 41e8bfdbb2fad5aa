// The saved-searches feature's public surface: the library's "Save this search" control, loaded
// only when the library shows it (its page is loaded lazily by the router, never from here).
import { createElement, lazy, Suspense } from 'react';

const LazySaveSearchButton = lazy(() => import('./SaveSearchButton'));

/** "Save this search" for the filters in the address bar (members only; nothing for visitors). */
export function SaveSearchButton() {
  return createElement(Suspense, { fallback: null }, createElement(LazySaveSearchButton));
}
