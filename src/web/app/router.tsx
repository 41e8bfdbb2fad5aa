import { createBrowserRouter, type RouteObject } from 'react-router';
import { Layout } from './Layout';
import { RouteError } from './RouteError';
import { NotFoundPage } from '../features/not-found';
import { loadLocaleGroups } from '../lib/i18n';
import type { LocaleGroup } from '../lib/localeGroups';

// Every page is its own chunk: the home page loads only what it shows. A page whose texts live
// in a lazy locale group (lib/localeGroups.ts) names it, and both arrive before it renders.
export const page = (
  load: () => Promise<{ default: React.ComponentType }>,
  localeGroups: readonly LocaleGroup[] = [],
): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => {
    const [mod] = await Promise.all([load(), loadLocaleGroups(localeGroups)]);
    return { Component: mod.default };
  },
});

/** The community's texts: its pages and the public profile's recent posts. */
const COMMUNITY: readonly LocaleGroup[] = ['community', 'communityApi'];

/** Children of /profile/:userId (the private area); features append their sections. */
export const privateAreaRoutes: RouteObject[] = [
  // Accounts: dashboard (also the index), settings
  { index: true, ...page(() => import('../features/accounts/DashboardPage')) },
  { path: 'dashboard', ...page(() => import('../features/accounts/DashboardPage')) },
  { path: 'settings', ...page(() => import('../features/accounts/SettingsPage')) },
  // Marketplace: books
  { path: 'books', ...page(() => import('../features/listings/MyBooksPage')) },
  { path: 'wishlist', ...page(() => import('../features/wishlist/WishlistPage')) },
  {
    path: 'trades',
    ...page(() => import('../features/wishlist/TradeMatchesPage'), ['tradeMatches']),
  },
  { path: 'friends', ...page(() => import('../features/connections/FriendsPage')) },
  { path: 'chats', ...page(() => import('../features/chats/ChatsPage'), ['chats']) },
  { path: 'notifications', ...page(() => import('../features/notifications/NotificationsPage')) },
  // Advertisements: list (edit is a modal over it), create, analytics
  { path: 'ads', ...page(() => import('../features/ads/AdsPage'), ['ads']) },
  { path: 'ads/new', ...page(() => import('../features/ads/AdCreatePage'), ['ads']) },
  {
    path: 'ads/:adId/analytics',
    ...page(() => import('../features/ads/AdAnalyticsPage'), ['ads']),
  },
  { path: 'transactions', ...page(() => import('../features/moderation/TradesPage')) },
];

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      { index: true, ...page(() => import('../features/home/HomePage')) },
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
      // Marketplace: library, buy, trade, library/book/:bookId, sell, user/:userId, user/:userId/books
      { path: 'library', ...page(() => import('../features/library/LibraryPage')) },
      { path: 'trade', ...page(() => import('../features/library/TradePage')) },
      { path: 'buy', ...page(() => import('../features/library/BuyPage')) },
      { path: 'library/book/:bookId', ...page(() => import('../features/library/BookDetailPage')) },
      { path: 'sell', ...page(() => import('../features/listings/SellPage')) },
      {
        path: 'user/:userId',
        ...page(() => import('../features/users/PublicProfilePage'), COMMUNITY),
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
      { path: 'promoted', ...page(() => import('../features/ads/PromotedPage'), ['ads']) },
      { path: 'ads/:adId', ...page(() => import('../features/ads/AdPage'), ['ads']) },
      { path: 'admin', ...page(() => import('../features/admin/AdminPage'), ['admin']) },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
