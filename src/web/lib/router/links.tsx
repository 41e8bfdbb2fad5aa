import {
  forwardRef,
  useContext,
  useLayoutEffect,
  type AnchorHTMLAttributes,
  type CSSProperties,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { type To, createPath, isActivePath, resolveTo } from './paths';
import { RouterContext } from './context';
import { SCROLL_STORAGE_KEY } from './history';
import { useLocation } from './react';

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
