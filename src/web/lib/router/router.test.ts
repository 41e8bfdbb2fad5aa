import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createBrowserRouter,
  createPath,
  createSearchParams,
  isActivePath,
  isRouteErrorResponse,
  matchRoutes,
  parsePath,
  resolveTo,
  type RouteObject,
} from '.';
import { fakeBrowser, nextState } from './browser.fixture';

const page = (name: string): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: Object.assign(() => null, { displayName: name }) }),
});

// The shape of app/router.tsx: a layout at '/', pages below it, a private area with an index.
const routes: RouteObject[] = [
  {
    path: '/',
    element: 'layout',
    errorElement: 'error',
    children: [
      { index: true, ...page('home') },
      { path: 'about', ...page('about') },
      { path: 'profile', ...page('private') },
      {
        path: 'profile/:userId',
        ...page('private'),
        children: [
          { index: true, ...page('dashboard') },
          { path: 'dashboard', ...page('dashboard') },
          { path: 'ads', ...page('ads') },
          { path: 'ads/new', ...page('adNew') },
          { path: 'ads/:adId/analytics', ...page('adAnalytics') },
        ],
      },
      { path: 'library', ...page('library') },
      { path: 'library/book/:bookId', ...page('book') },
      { path: 'ads/:adId', ...page('ad') },
      { path: '*', element: 'notFound' },
    ],
  },
];

/** The matched branch as route names: element, else the lazy page's name. */
function names(pathname: string) {
  const matches = matchRoutes(routes, pathname);
  if (!matches) return null;
  return {
    chain: matches.map(({ route }) =>
      typeof route.element === 'string' ? route.element : route.index ? 'index' : route.path,
    ),
    params: matches[matches.length - 1].params,
  };
}

describe('matchRoutes', () => {
  it('ranks static segments above params above the splat, and index routes first', () => {
    expect(names('/')?.chain).toEqual(['layout', 'index']);
    expect(names('/about')?.chain).toEqual(['layout', 'about']);
    expect(names('/library')?.chain).toEqual(['layout', 'library']);
    expect(names('/profile')?.chain).toEqual(['layout', 'profile']);
    expect(names('/profile/u1')?.chain).toEqual(['layout', 'profile/:userId', 'index']);
    expect(names('/profile/u1/ads/new')?.chain).toEqual(['layout', 'profile/:userId', 'ads/new']);
    expect(names('/profile/u1/ads/a9/analytics')?.chain).toEqual([
      'layout',
      'profile/:userId',
      'ads/:adId/analytics',
    ]);
    expect(names('/ads/a9')?.chain).toEqual(['layout', 'ads/:adId']);
  });

  it('sends whatever matches nothing else to the splat, with the rest of the path', () => {
    expect(names('/nowhere')).toEqual({
      chain: ['layout', 'notFound'],
      params: { '*': 'nowhere' },
    });
    expect(names('/library/book')?.chain).toEqual(['layout', 'notFound']);
    expect(names('/profile/u1/nothing')?.params).toEqual({ '*': 'profile/u1/nothing' });
    expect(names('/about/more')?.chain).toEqual(['layout', 'notFound']);
  });

  it('merges the params of the branch and decodes them', () => {
    expect(names('/profile/u1/ads/a%2F9/analytics')?.params).toEqual({
      userId: 'u1',
      adId: 'a/9',
    });
    expect(names('/library/book/caf%C3%A9')?.params).toEqual({ bookId: 'café' });
    // A malformed escape stays as written rather than failing the page.
    expect(names('/library/book/%E0%A4%A')?.params).toEqual({ bookId: '%E0%A4%A' });
    // Every match of the branch sees the same params (the layout reads userId).
    const matches = matchRoutes(routes, '/profile/u1/ads')!;
    expect(matches.map((m) => m.params.userId)).toEqual(['u1', 'u1', 'u1']);
  });

  it('tolerates a trailing slash and ignores case, as react-router', () => {
    expect(names('/about/')?.chain).toEqual(['layout', 'about']);
    expect(names('/profile/u1/')?.chain).toEqual(['layout', 'profile/:userId', 'index']);
    expect(names('/About')?.chain).toEqual(['layout', 'about']);
  });

  it('matches nothing without a catch-all', () => {
    expect(matchRoutes([{ path: '/a', element: 'a' }], '/b')).toBeNull();
    expect(matchRoutes([{ path: '/a', element: 'a' }], '/a')).toHaveLength(1);
  });

  it('keeps the order of siblings with equal scores', () => {
    const two: RouteObject[] = [
      { path: '/x/:a', element: 'first' },
      { path: '/x/:b', element: 'second' },
    ];
    expect(matchRoutes(two, '/x/1')![0].route.element).toBe('first');
  });

  it('prefers a static segment to a param whatever the order, and a param to the splat', () => {
    const table: RouteObject[] = [
      { path: '/*', element: 'splat' },
      { path: '/ads/:adId', element: 'ad' },
      { path: '/ads/new', element: 'new' },
    ];
    expect(matchRoutes(table, '/ads/new')![0].route.element).toBe('new');
    expect(matchRoutes(table, '/ads/a1')![0].route.element).toBe('ad');
    expect(matchRoutes(table, '/ads/a1/more')![0].route.element).toBe('splat');
    // The splat's penalty: '/ads/*' also matches /ads, but the exact route wins.
    const exact: RouteObject[] = [
      { path: '/ads/*', element: 'rest' },
      { path: '/ads', element: 'ads' },
    ];
    expect(matchRoutes(exact, '/ads')![0].route.element).toBe('ads');
    expect(matchRoutes(exact, '/ads/x')![0].route.element).toBe('rest');
  });
});

describe('paths', () => {
  it('parses and builds URLs', () => {
    expect(parsePath('/a/b?x=1#top')).toEqual({ pathname: '/a/b', search: '?x=1', hash: '#top' });
    expect(parsePath('?room=r1')).toEqual({ search: '?room=r1' });
    expect(createPath({ pathname: '/a', search: 'x=1', hash: 'h' })).toBe('/a?x=1#h');
    expect(createPath({ pathname: '/a', search: '?', hash: '#' })).toBe('/a');
  });

  it('resolves links as react-router does for absolute paths, ?search, #hash and "."', () => {
    const here = '/profile/u1/chats';
    expect(createPath(resolveTo('/library?q=1', here))).toBe('/library?q=1');
    // RoomList: to={`?room=…`} stays on the page.
    expect(createPath(resolveTo('?room=r1', here))).toBe('/profile/u1/chats?room=r1');
    expect(createPath(resolveTo('#top', here))).toBe('/profile/u1/chats#top');
    // '.' is the current path without its search (AdsPage dismissing the banner's state).
    expect(createPath(resolveTo('.', here))).toBe('/profile/u1/chats');
    expect(createPath(resolveTo({ pathname: '/a', search: '?b=1' }, here))).toBe('/a?b=1');
    expect(createPath(resolveTo('../friends', here))).toBe('/profile/u1/friends');
    expect(createPath(resolveTo('new', '/profile/u1/ads'))).toBe('/profile/u1/ads/new');
    // useSearchParams' setter with no params left.
    expect(createPath(resolveTo('?', here))).toBe('/profile/u1/chats');
  });

  it('tells NavLink when it is active', () => {
    expect(isActivePath('/library', '/library')).toBe(true);
    expect(isActivePath('/library/book/1', '/library')).toBe(true);
    expect(isActivePath('/library/book/1', '/library', true)).toBe(false);
    expect(isActivePath('/libraryx', '/library')).toBe(false);
    expect(isActivePath('/community', '/library')).toBe(false);
    // The home link is active on the home page only.
    expect(isActivePath('/library', '/')).toBe(false);
    expect(isActivePath('/', '/')).toBe(true);
  });

  it('builds search params from every init useSearchParams accepts', () => {
    expect(createSearchParams({ room: 'r 1' }).toString()).toBe('room=r+1');
    expect(createSearchParams({ tag: ['a', 'b'] }).toString()).toBe('tag=a&tag=b');
    expect(createSearchParams('?a=1').toString()).toBe('a=1');
    expect(createSearchParams([['a', '1']]).toString()).toBe('a=1');
    expect(createSearchParams(new URLSearchParams('a=1')).toString()).toBe('a=1');
    expect(createSearchParams({}).toString()).toBe('');
  });

  it("recognises react-router's error responses only", () => {
    expect(
      isRouteErrorResponse({ status: 404, statusText: 'Not Found', internal: true, data: '' }),
    ).toBe(true);
    expect(isRouteErrorResponse(new Error('boom'))).toBe(false);
    expect(isRouteErrorResponse(null)).toBe(false);
  });
});

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('createBrowserRouter', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("loads the first page's code before it starts, and marks the entry with a key and index", async () => {
    const win = fakeBrowser('/about');
    const router = createBrowserRouter(routes);
    expect(router.state.initialized).toBe(false);
    const state = await nextState(router);
    expect(state.initialized).toBe(true);
    expect(state.matches.map((m) => m.route.Component?.displayName ?? m.route.element)).toEqual([
      'layout',
      'about',
    ]);
    expect(win.history.state).toMatchObject({ idx: 0, key: state.location.key });
  });

  it('keeps the current page until the next one is loaded; the last navigation wins', async () => {
    const win = fakeBrowser('/');
    const slow = deferred<{ Component: () => null }>();
    const fast = deferred<{ Component: () => null }>();
    const table: RouteObject[] = [
      {
        path: '/',
        element: 'layout',
        children: [
          { index: true, element: 'home' },
          { path: 'slow', lazy: () => slow.promise },
          { path: 'fast', lazy: () => fast.promise },
        ],
      },
    ];
    const router = createBrowserRouter(table);
    expect(router.state.location.pathname).toBe('/');
    const seen: string[] = [];
    router.subscribe((s) => seen.push(s.location.pathname));
    router.navigate('/slow');
    router.navigate('/fast', { state: { from: 'test' } });
    expect(win.location.pathname).toBe('/');
    fast.resolve({ Component: () => null });
    await vi.waitFor(() => expect(seen).toEqual(['/fast']));
    slow.resolve({ Component: () => null });
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toEqual(['/fast']);
    expect(win.location.pathname).toBe('/fast');
    expect(win.history.state).toMatchObject({ usr: { from: 'test' }, idx: 1 });
    expect(router.state.location.state).toEqual({ from: 'test' });
    expect(router.state.action).toBe('PUSH');
  });

  it('pushes and replaces entries with the index pages read, and goes back on popstate', async () => {
    const win = fakeBrowser('/about', { usr: null, key: 'k0', idx: 0 });
    const router = createBrowserRouter(routes);
    await nextState(router);
    await nextState(router, () => router.navigate('/library?q=1'));
    expect(win.history.state).toMatchObject({ idx: 1, usr: null });
    await nextState(router, () => router.navigate('?q=2', { replace: true }));
    expect(win.location).toEqual({ pathname: '/library', search: '?q=2', hash: '' });
    expect(win.history.state).toMatchObject({ idx: 1 });
    expect(win.history.length).toBe(2);

    win.scrollY = 420;
    const back = await nextState(router, () => router.navigate(-1));
    expect(back.action).toBe('POP');
    expect(back.location).toMatchObject({ pathname: '/about', key: 'k0' });
    // The library's position was kept; going forward restores it.
    win.scrollY = 0;
    const forward = await nextState(router, () => router.navigate(1));
    expect(forward.location.search).toBe('?q=2');
    expect(forward.restoreScroll).toBe(420);
  });

  it('resets the scroll on new entries unless asked not to', async () => {
    fakeBrowser('/library');
    const router = createBrowserRouter(routes);
    await nextState(router);
    router.navigate('?genre=poetry', { preventScrollReset: true });
    expect(router.state.preventScrollReset).toBe(true);
    expect(router.state.restoreScroll).toBeNull();
    router.navigate('/about');
    await nextState(router);
    expect(router.state.preventScrollReset).toBe(false);
  });

  it("shows a failed page's error at the nearest errorElement, and tries again next time", async () => {
    fakeBrowser('/');
    let attempts = 0;
    const table: RouteObject[] = [
      {
        path: '/',
        element: 'layout',
        errorElement: 'error',
        children: [
          { index: true, element: 'home' },
          {
            path: 'flaky',
            lazy: async () => {
              attempts++;
              if (attempts === 1) throw new Error('chunk failed');
              return { Component: () => null };
            },
          },
        ],
      },
    ];
    const router = createBrowserRouter(table);
    router.navigate('/flaky');
    const failed = await nextState(router);
    expect(failed.error?.index).toBe(0);
    expect((failed.error?.value as Error).message).toBe('chunk failed');
    expect(failed.matches).toHaveLength(1);
    router.navigate('/');
    router.navigate('/flaky');
    const ok = await nextState(router);
    expect(ok.error).toBeNull();
    expect(ok.location.pathname).toBe('/flaky');
    expect(attempts).toBe(2);
  });

  it('answers a URL no route matches with a 404 error response', async () => {
    fakeBrowser('/nothing');
    const router = createBrowserRouter([{ path: '/', element: 'home', errorElement: 'error' }]);
    const error = router.state.error?.value;
    expect(isRouteErrorResponse(error) && error.status).toBe(404);
  });

  it('gives an entry the browser made for a #fragment a key and the next index', async () => {
    const win = fakeBrowser('/about');
    const router = createBrowserRouter(routes);
    await nextState(router);
    win.history.pushState(null, '', '/about#main');
    const state = await nextState(router, () => win.history.go(0));
    expect(state.location.hash).toBe('#main');
    expect(win.history.state).toMatchObject({ idx: 1, usr: null });
    expect(state.location.key).toBe((win.history.state as { key: string }).key);
  });
});
