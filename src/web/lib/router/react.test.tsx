import type { MouseEvent, ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  Link,
  NavLink,
  Outlet,
  RouterProvider,
  createBrowserRouter,
  isRouteErrorResponse,
  useLocation,
  useNavigate,
  useParams,
  useRouteError,
  useSearchParams,
  type LinkProps,
  type RouteObject,
  type Router,
} from '.';
import { fakeBrowser, nextState } from './browser.fixture';

/**
 * The router's React half (react.tsx, links.tsx) as a page sees it, rendered to HTML: the DOM-less
 * test machine has no document to click in, so a link's click is its own handler called with the
 * event a person's click makes.
 */

function Shell() {
  return (
    <div id="shell">
      <header>Scaffale</header>
      <main>
        <Outlet />
      </main>
    </div>
  );
}
function Book() {
  const { bookId } = useParams<{ bookId: string }>();
  const { search } = useLocation();
  return <h1>{`Book ${bookId}${search}`}</h1>;
}
function Ad() {
  const params = useParams();
  return <h1>{`Ad ${params.adId} of ${params.userId}`}</h1>;
}
function Search() {
  const [params] = useSearchParams();
  return <h1>{`Results for ${params.getAll('genre').join(' and ')}`}</h1>;
}
function ShellError() {
  const error = useRouteError();
  return (
    <p role="alert">
      {isRouteErrorResponse(error) ? `Not found (${error.status})` : `Broken: ${String(error)}`}
    </p>
  );
}

const routes: RouteObject[] = [
  {
    path: '/',
    element: <Shell />,
    errorElement: <ShellError />,
    children: [
      { index: true, element: <h1>Home</h1> },
      { path: 'library', element: <Search /> },
      { path: 'library/book/:bookId', element: <Book /> },
      {
        path: 'profile/:userId',
        element: (
          <section>
            <Outlet />
          </section>
        ),
        children: [
          { index: true, element: <h1>Dashboard</h1> },
          { path: 'ads/:adId/analytics', element: <Ad /> },
        ],
      },
      {
        path: 'offline',
        lazy: () => Promise.reject(new Error('chunk failed')),
        errorElement: <ShellError />,
      },
    ],
  },
];

/** The router at `url`, ready (no lazy routes here: it is ready at once). */
function routerAt(url: string, table = routes): Router {
  fakeBrowser(url);
  const router = createBrowserRouter(table);
  expect(router.state.initialized).toBe(true);
  return router;
}

const render = (router: Router) => renderToStaticMarkup(<RouterProvider router={router} />);

/** What a page's `<Link>` renders, with its click handler, under `router` at its location. */
function linkAt(router: Router, props: LinkProps, component: typeof Link = Link) {
  let anchor: ReactElement<{ href: string; onClick: (e: MouseEvent) => void }> | undefined;
  const inner = (component as unknown as { render: (p: LinkProps, ref: null) => ReactElement })
    .render;
  function Probe() {
    // NavLink renders a Link: the anchor is the Link's own output.
    const out = inner(props, null) as ReactElement<LinkProps>;
    anchor = (
      out.type === Link
        ? (Link as unknown as { render: (p: LinkProps, ref: null) => ReactElement }).render(
            out.props,
            null,
          )
        : out
    ) as typeof anchor;
    return anchor!;
  }
  const html = renderToStaticMarkup(
    <RouterProvider router={{ ...router, routes: [], state: withElement(router, <Probe />) }} />,
  );
  return { html, anchor: anchor! };
}

/** The router's state with `element` as the only page, so a probe renders under its location. */
function withElement(router: Router, element: ReactElement): Router['state'] {
  return { ...router.state, matches: [{ route: { path: '*', element }, params: {} }], error: null };
}

/** A person's plain left click, or one with a modifier. */
function click(over: Partial<MouseEvent> = {}) {
  const event = {
    button: 0,
    defaultPrevented: false,
    metaKey: false,
    altKey: false,
    ctrlKey: false,
    shiftKey: false,
    preventDefault: vi.fn(),
    ...over,
  };
  return event as unknown as MouseEvent & { preventDefault: ReturnType<typeof vi.fn> };
}

afterEach(() => vi.unstubAllGlobals());

describe('RouterProvider', () => {
  it('renders the matched branch, each layout around its child through Outlet', () => {
    const html = render(routerAt('/profile/u1'));
    expect(html).toBe(
      '<div id="shell"><header>Scaffale</header><main><section><h1>Dashboard</h1></section></main></div>',
    );
    expect(render(routerAt('/'))).toContain('<main><h1>Home</h1></main>');
  });

  it('gives pages the params of the whole branch, decoded, and the location', () => {
    expect(render(routerAt('/profile/u%201/ads/a9/analytics'))).toContain('<h1>Ad a9 of u 1</h1>');
    expect(render(routerAt('/Library/Book/42/?from=home'))).toContain('<h1>Book 42?from=home</h1>');
    expect(render(routerAt('/library?genre=poetry&genre=fantasy'))).toContain(
      '<h1>Results for poetry and fantasy</h1>',
    );
  });

  it("answers a URL no route matches with a 404 in the root's error element", () => {
    expect(render(routerAt('/no/such/page'))).toBe('<p role="alert">Not found (404)</p>');
  });

  // Rendering to HTML has no error boundaries: a page that throws while rendering (the same
  // boundary) is not shown here.
  it("shows a page whose code failed to load in its route's error element, the shell kept", async () => {
    fakeBrowser('/offline');
    const router = createBrowserRouter(routes);
    await nextState(router);
    const html = render(router);
    expect(html).toContain('<header>Scaffale</header>');
    expect(html).toContain('<main><p role="alert">Broken: Error: chunk failed</p></main>');
  });

  it('renders nothing until the first page is ready, then the page navigated to', async () => {
    fakeBrowser('/');
    let ready!: (page: { Component: () => ReactElement }) => void;
    const router = createBrowserRouter([
      { path: '/', lazy: () => new Promise((resolve) => (ready = resolve)) },
      { path: '/library/book/:bookId', element: <Book /> },
    ]);
    expect(render(router)).toBe('');
    ready({ Component: () => <h1>Home</h1> });
    await nextState(router);
    expect(render(router)).toBe('<h1>Home</h1>');
    await nextState(router, () => router.navigate('/library/book/7?tab=seller'));
    expect(render(router)).toBe('<h1>Book 7?tab=seller</h1>');
  });

  it('hands pages the router’s own navigate, one identity for the app’s lifetime', () => {
    const router = routerAt('/');
    const seen: unknown[] = [];
    function Page() {
      seen.push(useNavigate());
      return null;
    }
    render({ ...router, state: withElement(router, <Page />) });
    render({ ...router, state: withElement(router, <Page />) });
    expect(seen).toEqual([router.navigate, router.navigate]);
  });
});

describe('Link', () => {
  it('writes the href a person would follow: absolute, ?search and #hash, "." and external', () => {
    const router = routerAt('/library/book/42?tab=a');
    const href = (to: LinkProps['to']) => linkAt(router, { to }).anchor.props.href;
    expect(href('/community')).toBe('/community');
    expect(href('?genre=poetry')).toBe('/library/book/42?genre=poetry');
    expect(href('#seller')).toBe('/library/book/42#seller');
    expect(href('.')).toBe('/library/book/42');
    expect(href({ pathname: '/library', search: 'q=eco' })).toBe('/library?q=eco');
    expect(href('https://example.org/x')).toBe('https://example.org/x');
    expect(linkAt(router, { to: '/about', className: 'x' }).html).toBe(
      '<a class="x" href="/about"></a>',
    );
  });

  it('navigates on a plain click without a full load, as a new entry with its state', async () => {
    const win = fakeBrowser('/');
    const router = createBrowserRouter(routes);
    const onClick = vi.fn();
    const event = click();
    const moved = nextState(router, () =>
      linkAt(router, {
        to: '/library/book/5',
        state: { from: 'home' },
        onClick,
      }).anchor.props.onClick(event),
    );
    const state = await moved;
    expect(onClick).toHaveBeenCalledWith(event);
    expect(event.preventDefault).toHaveBeenCalled();
    expect(state).toMatchObject({
      action: 'PUSH',
      location: { pathname: '/library/book/5', state: { from: 'home' } },
    });
    expect(win.history.length).toBe(2);
    expect(render(router)).toContain('<h1>Book 5</h1>');
  });

  it('replaces the entry when the link points where we are', async () => {
    const win = fakeBrowser('/library?genre=poetry');
    const router = createBrowserRouter(routes);
    const state = await nextState(router, () =>
      linkAt(router, { to: '?genre=poetry' }).anchor.props.onClick(click()),
    );
    expect(state.action).toBe('REPLACE');
    expect(win.history.length).toBe(1);
  });

  it('leaves to the browser a click with a modifier, another button, a new tab, or a full load', () => {
    const router = routerAt('/');
    const navigate = vi.spyOn(router, 'navigate');
    const cases: Array<[LinkProps, Partial<MouseEvent>]> = [
      [{ to: '/library' }, { ctrlKey: true }],
      [{ to: '/library' }, { metaKey: true }],
      [{ to: '/library' }, { shiftKey: true }],
      [{ to: '/library' }, { altKey: true }],
      [{ to: '/library' }, { button: 1 }],
      [{ to: '/library' }, { defaultPrevented: true }],
      [{ to: '/library', target: '_blank' }, {}],
      [{ to: '/library', reloadDocument: true }, {}],
      [{ to: 'https://example.org/' }, {}],
    ];
    for (const [props, over] of cases) {
      const event = click(over);
      linkAt(router, props).anchor.props.onClick(event);
      expect(event.preventDefault, JSON.stringify([props, over])).not.toHaveBeenCalled();
    }
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('NavLink', () => {
  const nav = (url: string, props: Parameters<typeof NavLink>[0]) =>
    linkAt(routerAt(url), props as LinkProps, NavLink as unknown as typeof Link).html;

  it('marks the link to the current page, and to a page above it unless `end`', () => {
    expect(nav('/library/book/42', { to: '/library', className: 'link' })).toBe(
      '<a aria-current="page" class="link active" href="/library"></a>',
    );
    expect(nav('/library/book/42', { to: '/library', end: true })).toBe('<a href="/library"></a>');
    expect(nav('/LIBRARY', { to: '/library', end: true })).toBe(
      '<a aria-current="page" class="active" href="/library"></a>',
    );
    // "/" is active on the home page only; a sibling with a common prefix is not below.
    expect(nav('/library', { to: '/' })).toBe('<a href="/"></a>');
    expect(nav('/library-old', { to: '/library' })).toBe('<a href="/library"></a>');
  });

  it('lets class, style and children follow whether it is active', () => {
    const html = nav('/community', {
      to: '/community',
      className: ({ isActive }) => (isActive ? 'on' : 'off'),
      style: ({ isActive }) => ({ fontWeight: isActive ? 700 : 400 }),
      children: ({ isActive }) => (isActive ? 'Community (here)' : 'Community'),
    });
    expect(html).toBe(
      '<a aria-current="page" class="on" style="font-weight:700" href="/community">Community (here)</a>',
    );
  });
});
