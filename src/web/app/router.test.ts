import { isValidElement } from 'react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { matchRoutes, type RouteObject, type Router } from '@web/lib/router';
import { fakeBrowser } from '@web/lib/router/browser.fixture';
import { DEFAULT_PAGE_LOCALE_GROUPS, type LocaleGroup } from '../lib/localeGroups';
import { NotFoundPage } from '../features/not-found';

// A page's texts are fetched with its code: here the page's code alone, the groups recorded.
const withLocaleGroups = vi.hoisted(() =>
  vi.fn(<T>(_groups: readonly LocaleGroup[], load: () => Promise<T>) => load()),
);
vi.mock('../lib/i18n', async (original) => ({ ...(await original<object>()), withLocaleGroups }));
// The catalogues' loaders are made by the build (vite.config.ts): empty catalogues here.
vi.mock('virtual:locale-loaders', () => {
  const core = { core: async () => ({ default: {} }) };
  return { loaders: { it: core, en: core } };
});

/**
 * The app's route table (router.tsx): which page each address of the app opens, with which
 * params, what an unknown address shows, and how a page's code and texts are loaded.
 */
let app: typeof import('./router');
beforeAll(async () => {
  // The module makes the app's router at once, in a browser at an address no page has.
  fakeBrowser('/no-such-page');
  app = await import('./router');
});
afterAll(() => vi.unstubAllGlobals());

/** The matched branch as the route paths from the root ('index' for an index route). */
function opens(url: string) {
  const matches = matchRoutes(app.routes, url);
  if (!matches) return null;
  return {
    branch: matches.map(({ route }) => (route.index ? 'index' : route.path)),
    params: matches[matches.length - 1].params,
  };
}

describe('the route table', () => {
  it.each([
    ['/', ['/', 'index'], {}],
    ['/library', ['/', 'library'], {}],
    ['/library/book/b-42', ['/', 'library/book/:bookId'], { bookId: 'b-42' }],
    ['/buy', ['/', 'buy'], {}],
    ['/trade', ['/', 'trade'], {}],
    ['/sell', ['/', 'sell'], {}],
    ['/user/u1', ['/', 'user/:userId'], { userId: 'u1' }],
    ['/user/u1/books', ['/', 'user/:userId/books'], { userId: 'u1' }],
    ['/community', ['/', 'community'], {}],
    ['/community/posts/p7', ['/', 'community/posts/:postId'], { postId: 'p7' }],
    ['/promoted', ['/', 'promoted'], {}],
    ['/ads/a9', ['/', 'ads/:adId'], { adId: 'a9' }],
    ['/admin', ['/', 'admin'], {}],
    ['/login', ['/', 'login'], {}],
    ['/signup', ['/', 'signup'], {}],
    ['/auth/callback', ['/', 'auth/callback'], {}],
    ['/reset-password', ['/', 'reset-password'], {}],
    ['/about', ['/', 'about'], {}],
    ['/contact', ['/', 'contact'], {}],
    ['/privacy-policy', ['/', 'privacy-policy'], {}],
    ['/privacy_policy', ['/', 'privacy_policy'], {}],
    ['/terms-of-service', ['/', 'terms-of-service'], {}],
    ['/cookie-policy', ['/', 'cookie-policy'], {}],
    ['/profile', ['/', 'profile'], {}],
  ])('opens %s as %j with its params', (url, branch, params) => {
    expect(opens(url)).toEqual({ branch, params });
  });

  it('opens the private area at /profile/:userId, its dashboard also as the index', () => {
    expect(opens('/profile/u1')).toEqual({
      branch: ['/', 'profile/:userId', 'index'],
      params: { userId: 'u1' },
    });
    for (const section of app.privateAreaRoutes.filter((r) => r.path && !r.path.includes(':'))) {
      expect(opens(`/profile/u1/${section.path}`)).toEqual({
        branch: ['/', 'profile/:userId', section.path],
        params: { userId: 'u1' },
      });
    }
    expect(opens('/profile/u1/ads/new')?.branch.at(-1)).toBe('ads/new');
    expect(opens('/profile/u%20one/ads/a9/analytics')).toEqual({
      branch: ['/', 'profile/:userId', 'ads/:adId/analytics'],
      params: { userId: 'u one', adId: 'a9' },
    });
  });

  it('tolerates a trailing slash and capitals, as people type addresses', () => {
    expect(opens('/Library/Book/b-42/')).toEqual(opens('/library/book/b-42'));
    expect(opens('/COMMUNITY/')?.branch).toEqual(['/', 'community']);
  });

  it('shows the not-found page inside the shell for any other address', () => {
    for (const url of [
      '/no-such-page',
      '/library/book',
      '/library/book/b-42/extra',
      '/profile/u1/no-such-section',
      '/user/u1/books/more',
      '/ads',
    ]) {
      const matches = matchRoutes(app.routes, url)!;
      expect(
        matches.map((m) => m.route.path),
        url,
      ).toEqual(['/', '*']);
      const page = matches[1].route.element;
      expect(isValidElement(page) && page.type, url).toBe(NotFoundPage);
    }
  });

  it('gives every page its own chunk and an error element that keeps the shell', () => {
    const pages: RouteObject[] = [];
    const walk = (list: RouteObject[]) =>
      list.forEach((route) => {
        if (route.lazy) pages.push(route);
        if (route.children) walk(route.children);
      });
    walk(app.routes[0].children!);
    expect(pages.length).toBeGreaterThan(30);
    for (const route of pages) {
      expect(route.element, route.path).toBeUndefined();
      expect(isValidElement(route.errorElement), route.path).toBe(true);
    }
    // The shell has its own for what fails above the pages.
    expect(isValidElement(app.routes[0].errorElement)).toBe(true);
  });

  it('is the table of the app’s router, which opens the address it starts at', () => {
    const router: Router = app.router;
    expect(router.routes).toBe(app.routes);
    expect(router.state.location.pathname).toBe('/no-such-page');
    expect(router.state.matches.map((m) => m.route.path)).toEqual(['/', '*']);
  });
});

describe('page()', () => {
  it('loads the page’s code with its texts: the pages group unless it names its own', async () => {
    const Page = () => null;
    const route = app.page(async () => ({ default: Page }));
    expect(await route.lazy!()).toEqual({ Component: Page });
    expect(withLocaleGroups).toHaveBeenLastCalledWith(
      DEFAULT_PAGE_LOCALE_GROUPS,
      expect.any(Function),
    );
    await app.page(async () => ({ default: Page }), ['legal']).lazy!();
    expect(withLocaleGroups).toHaveBeenLastCalledWith(['legal'], expect.any(Function));
    expect(isValidElement(route.errorElement)).toBe(true);
  });

  it('turns code that cannot be fetched into a PageLoadError, the cause kept', async () => {
    const offline = new TypeError('Failed to fetch dynamically imported module');
    const { PageLoadError } = await import('./pageLoad');
    const failed = await app.page(() => Promise.reject(offline)).lazy!().catch(
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(PageLoadError);
    expect(failed).toMatchObject({ cause: offline, message: offline.message });
  });
});
