import type { AdStatus, Advertisement, AdCard, AdAuthor } from '@shared/schemas/ads';

export type {
  AdAnalytics,
  AdCard,
  AdListPage,
  AdReview,
  AdReviewPage,
  AdStatus,
  AdTimeframe,
  Advertisement,
  PromotedPage,
  SlotAd,
} from '@shared/schemas/ads';

/** The name an ad runs under: its author's display name, else the username. */
export function sponsorName(p: Pick<AdAuthor, 'displayName' | 'username'> | AdCard['sponsor']) {
  return p.displayName || p.username || '';
}

export type { AdAuthor };
export type Ad = Advertisement;
export type { AdStatus as Status };
export const isStatus = (s: string): s is AdStatus =>
  ['draft', 'active', 'paused', 'expired', 'rejected'].includes(s);
