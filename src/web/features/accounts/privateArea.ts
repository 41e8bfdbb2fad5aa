import type { LocaleKey } from '../../lib/translator';

/**
 * Sections of the private area (/profile/{userId}/...). The menu shows only sections that have a
 * screen: each feature adds its entry here when it adds the route (see router.tsx).
 */
export interface PrivateSection {
  /** Path segment under /profile/{userId}/ */
  path: string;
  /** Locale key of the menu label and the mobile header title */
  labelKey: LocaleKey;
}

export const privateSections: PrivateSection[] = [
  { path: 'dashboard', labelKey: 'privateArea.menu.dashboard' },
  { path: 'books', labelKey: 'privateArea.menu.books' },
  { path: 'wishlist', labelKey: 'privateArea.menu.wishlist' },
  { path: 'watching', labelKey: 'privateArea.menu.watching' },
  { path: 'trades', labelKey: 'privateArea.menu.trades' },
  { path: 'saved-searches', labelKey: 'privateArea.menu.savedSearches' },
  { path: 'friends', labelKey: 'privateArea.menu.friends' },
  { path: 'chats', labelKey: 'privateArea.menu.chats' },
  { path: 'notifications', labelKey: 'privateArea.menu.notifications' },
  { path: 'ads', labelKey: 'privateArea.menu.ads' },
  { path: 'transactions', labelKey: 'reviews.trades.menu' },
  { path: 'payments', labelKey: 'privateArea.menu.payments' },
  { path: 'settings', labelKey: 'privateArea.menu.settings' },
];
