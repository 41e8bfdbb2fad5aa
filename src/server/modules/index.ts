import type { Module } from '../platform/module';
import { healthRoutes } from './health/routes';
import { statsRoutes } from './stats/routes';
import { devMailRoutes } from './devmail/routes';
import { contactRoutes } from './contact/routes';
import { profileRoutes } from './profiles/routes';
import { accountRoutes } from './accounts/routes';
import { catalogueRoutes } from './catalogue/routes';
import { listingRoutes } from './listings/routes';
import { libraryRoutes } from './library/routes';
import { userRoutes } from './users/routes';
import { connectionRoutes } from './connections/routes';
import { chatRoutes } from './chats/routes';
import { offerRoutes } from './deals/offers/routes';
import { seoRoutes } from './seo/routes';
import { notificationRoutes } from './notifications/routes';
import { wishlistRoutes } from './wishlist/routes';
import { savedSearchRoutes } from './saved-searches/routes';
import { communityRoutes } from './community/routes';
import { adRoutes } from './ads/routes';
import { moderationRoutes } from './moderation/routes';
import { reviewRoutes } from './reviews/routes';
import { privacyRoutes } from './privacy/routes';
import { blockRoutes } from './blocks/routes';
import { watchingRoutes } from './watching/routes';
import { holidayRoutes } from './profiles/holiday';
import { dealRoutes } from './deals/routes';
import { bundleRoutes } from './deals/bundles/routes';
import { paymentRoutes } from './payments/routes';

/**
 * Every domain module, registered in this order by buildApp. The registry takes each module's
 * routes; other modules use a module through its index.ts, which leaves the routes out.
 */
export const modules: Module[] = [
  healthRoutes,
  statsRoutes,
  devMailRoutes,
  contactRoutes,
  profileRoutes,
  accountRoutes,
  catalogueRoutes,
  listingRoutes,
  libraryRoutes,
  userRoutes,
  connectionRoutes,
  chatRoutes,
  offerRoutes,
  dealRoutes,
  bundleRoutes,
  paymentRoutes,
  notificationRoutes,
  wishlistRoutes,
  savedSearchRoutes,
  communityRoutes,
  adRoutes,
  moderationRoutes,
  reviewRoutes,
  privacyRoutes,
  blockRoutes,
  watchingRoutes,
  holidayRoutes,
  seoRoutes,
];
