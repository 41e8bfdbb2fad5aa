import { createBrowserRouter, type RouteObject } from '@web/lib/router';
import { Layout } from './Layout';
import { RouteError } from './RouteError';
import { PageLoadError } from './pageLoad';
import { NotFoundPage } from '../features/not-found';
import { withLocaleGroups } from '../lib/i18n';
import { DEFAULT_PAGE_LOCALE_GROUPS, type LocaleGroup } from '../lib/localeGroups';

// Every page is its own chunk: the home page loads only what it shows. A page's texts come with
// it: the locale groups it names (lib/localeGroups.ts), by default the "pages" group (every text
// neither the shell nor a lazy group of its own holds), fetched together with its chunk (and on a
// first visit preloaded by the boot script, vite.config.ts `routePreload`). A route naming its
// groups names all of them; localeGroups.test.ts checks them against the page's sources.
// A page that cannot be fetched (offline, or a chunk gone after a deploy) or fails to render shows
// its own error element inside the shell (header and footer stay), not the whole-app error page.
export const page = (
  load: () => Promise<{ default: React.ComponentType }>,
  localeGroups: readonly LocaleGroup[] = DEFAULT_PAGE_LOCALE_GROUPS,
): Pick<RouteObject, 'lazy' | 'errorElement'> => ({
  lazy: async () => {
    try {
      const mod = await withLocaleGroups(localeGroups, load);
      return { Component: mod.default };
    } catch (error) {
      throw new PageLoadError(error);
    }
  },
  errorElement: <RouteError />,
});

/** The community's texts: its pages and the public profile's recent posts. */
const COMMUNITY: readonly LocaleGroup[] = ['pages', 'community', 'communityApi'];
/** The public profile also offers "Block" (features/blocks). */
const PROFILE: readonly LocaleGroup[] = [...COMMUNITY, 'blocks'];

/** Children of /profile/:userId (the private area); features append their sections. */
export const privateAreaRoutes: RouteObject[] = [
  // Accounts: dashboard (also the index), settings
  { index: true, ...page(() => import('../features/accounts/DashboardPage')) },
  { path: 'dashboard', ...page(() => import('../features/accounts/DashboardPage')) },
  {
    path: 'settings',
    ...page(
      () => import('../features/accounts/SettingsPage'),
      ['pages', 'blocks', 'privacy', 'notifications'],
    ),
  },
  // Marketplace: books
  { path: 'books', ...page(() => import('../features/listings/MyBooksPage')) },
  { path: 'wishlist', ...page(() => import('../features/wishlist/WishlistPage')) },
  { path: 'watching', ...page(() => import('./pages/WatchesPage')) },
  {
    path: 'trades',
    ...page(() => import('../features/wishlist/TradeMatchesPage'), ['pages', 'tradeMatches']),
  },
  {
    path: 'saved-searches',
    ...page(() => import('../features/saved-searches/SavedSearchesPage')),
  },
  { path: 'friends', ...page(() => import('../features/connections/FriendsPage')) },
  {
    path: 'chats',
    ...page(() => import('../features/chats/ChatsPage'), ['pages', 'chats', 'blocks']),
  },
  {
    path: 'notifications',
    ...page(() => import('../features/notifications/NotificationsPage'), ['notifications']),
  },
  // Advertisements: list (edit is a modal over it), create, analytics
  { path: 'ads', ...page(() => import('../features/ads/AdsPage'), ['pages', 'ads']) },
  { path: 'ads/new', ...page(() => import('../features/ads/AdCreatePage'), ['pages', 'ads']) },
  {
    path: 'ads/:adId/analytics',
    ...page(() => import('../features/ads/AdAnalyticsPage'), ['pages', 'ads']),
  },
  { path: 'transactions', ...page(() => import('../features/moderation/TradesPage')) },
  { path: 'payments', ...page(() => import('../features/payments/PaymentsPage')) },
];

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      // The home page shows only texts of the core catalogue (the first download).
      { index: true, ...page(() => import('../features/home/HomePage'), []) },
      // Static pages: about, contact, legal
      { path: 'about', ...page(() => import('../features/about/AboutPage')) },
      { path: 'contact', ...page(() => import('../features/contact/ContactPage')) },
      {
        path: 'privacy-policy',
        ...page(() => import('../features/legal/PrivacyPolicyPage'), ['legal']),
      },
      {
        path: 'privacy_policy',
        ...page(() => import('../features/legal/PrivacyPolicyPage'), ['legal']),
      },
      {
        path: 'terms-of-service',
        ...page(() => import('../features/legal/TermsOfServicePage'), ['legal']),
      },
      {
        path: 'cookie-policy',
        ...page(() => import('../features/legal/CookiePolicyPage'), ['legal']),
      },
      // Accounts: login, signup, auth/callback, reset-password, profile/:userId/* (privateAreaRoutes)
      { path: 'login', ...page(() => import('../features/accounts/LoginPage')) },
      { path: 'signup', ...page(() => import('../features/accounts/SignupPage')) },
      { path: 'auth/callback', ...page(() => import('../features/accounts/AuthCallbackPage')) },
      { path: 'reset-password', ...page(() => import('../features/accounts/ResetPasswordPage')) },
      // No id: the layout's guard sends the member to their own dashboard (or a visitor to /login).
      { path: 'profile', ...page(() => import('../features/accounts/PrivateAreaLayout')) },
      {
        path: 'profile/:userId',
        ...page(() => import('../features/accounts/PrivateAreaLayout')),
        children: privateAreaRoutes,
      },
      // Marketplace: library, buy, trade, library/book/:bookId, books/:workId, sell, user/:userId,
      // user/:userId/books
      { path: 'library', ...page(() => import('../features/library/LibraryPage')) },
      { path: 'trade', ...page(() => import('../features/library/TradePage')) },
      { path: 'buy', ...page(() => import('../features/library/BuyPage')) },
      { path: 'library/book/:bookId', ...page(() => import('../features/library/BookDetailPage')) },
      // A work: every edition and copy of one book (issue 35)
      { path: 'books/:workId', ...page(() => import('../features/works/WorkPage')) },
      { path: 'sell', ...page(() => import('../features/listings/SellPage')) },
      {
        path: 'user/:userId',
        ...page(() => import('./pages/PublicProfilePage'), PROFILE),
      },
      { path: 'user/:userId/books', ...page(() => import('../features/users/UserBooksPage')) },
      // Community: the feed and a post's shareable page
      {
        path: 'community',
        ...page(() => import('../features/community/CommunityPage'), COMMUNITY),
      },
      {
        path: 'community/posts/:postId',
        ...page(() => import('../features/community/PostPage'), COMMUNITY),
      },
      // Advertisements: the promoted books, an ad's page
      { path: 'promoted', ...page(() => import('../features/ads/PromotedPage'), ['pages', 'ads']) },
      { path: 'ads/:adId', ...page(() => import('../features/ads/AdPage'), ['pages', 'ads']) },
      { path: 'admin', ...page(() => import('../features/admin/AdminPage'), ['pages', 'admin']) },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
