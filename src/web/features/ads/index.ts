import { createElement, lazy, Suspense, type ComponentProps } from 'react';
import { withLocaleGroups } from '../../lib/i18n';

// Everything here is lazy: a page that shows a sponsored slot downloads the ads code and texts
// only after its own first render, so a slot never delays the page (the library, /buy, the feed).
const LazyCard = lazy(() => withLocaleGroups(['ads'], () => import('./SponsoredCard')));
const LazyShelf = lazy(() => withLocaleGroups(['ads'], () => import('./SponsoredShelf')));

type CardProps = ComponentProps<typeof LazyCard>;
type ShelfProps = ComponentProps<typeof LazyShelf>;

/**
 * One sponsored card for a slot: `placement` is where it is shown (library, buy, community),
 * `genre` and `q` what the reader is looking at. Renders nothing while loading (unless `reserve`)
 * and when no ad may run.
 */
export function SponsoredCard(props: CardProps) {
  return createElement(Suspense, { fallback: null }, createElement(LazyCard, props));
}

/** The sponsored shelf of /buy. */
export function SponsoredShelf(props: ShelfProps) {
  return createElement(Suspense, { fallback: null }, createElement(LazyShelf, props));
}
