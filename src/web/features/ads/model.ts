import type { AdStatus, Advertisement, AdCard, AdAuthor } from '@shared/schemas/ads';
import { isUploadPath, normalizeHttpsUrl } from '@shared/urls';

/**
 * What the page renders of an author's addresses: an image only when it is one of our uploads, a
 * link only as an https URL in normal form. The server refuses anything else; this also keeps
 * out whatever an older server stored.
 */
export const adImageSrc = (url: string | null | undefined) =>
  url && isUploadPath(url) ? url : null;
export const adLinkHref = (url: string | null | undefined) => (url ? normalizeHttpsUrl(url) : null);

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
