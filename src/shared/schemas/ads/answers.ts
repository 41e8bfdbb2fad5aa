import { z } from 'zod';
import { pageOf } from '../common';
import {
  AD_GENRES,
  AD_LANGUAGES,
  AD_CURRENCIES,
  AD_TYPES,
  AD_STATUSES,
  AD_EVENT_KINDS,
  AD_PLACEMENTS,
  AD_TIMEFRAMES,
} from './constants';

/** Advertisements: the shape of every answer. */

export const adAuthorSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  username: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  bio: z.string().nullable(),
});
export type AdAuthor = z.infer<typeof adAuthorSchema>;

const purchaseLinksAnswer = z.object({
  amazon: z.string().optional(),
  bookshop: z.string().optional(),
  barnes_noble: z.string().optional(),
  author_website: z.string().optional(),
});

export const advertisementSchema = z.object({
  id: z.string(),
  authorId: z.string(),
  author: adAuthorSchema,
  title: z.string(),
  subtitle: z.string().nullable(),
  description: z.string(),
  genre: z.enum(AD_GENRES),
  language: z.enum(AD_LANGUAGES),
  isbn13: z.string().nullable(),
  publisher: z.string().nullable(),
  publicationYear: z.number().int().nullable(),
  pageCount: z.number().int().nullable(),
  adType: z.enum(AD_TYPES),
  keywords: z.array(z.string()),
  targetAudience: z.array(z.string()),
  coverImageUrl: z.string().nullable(),
  promotionalImages: z.array(z.string()),
  trailerVideoUrl: z.string().nullable(),
  sampleChapterUrl: z.string().nullable(),
  authorWebsiteUrl: z.string().nullable(),
  socialLinks: z.array(z.string()),
  purchaseLinks: purchaseLinksAnswer,
  bookPrice: z.number().nullable(),
  currency: z.enum(AD_CURRENCIES),
  dailyBudget: z.number(),
  totalBudget: z.number(),
  /** Shown status: an active ad past its end date is 'expired'. */
  status: z.enum(AD_STATUSES),
  /** A moderator's reason when the ad is 'rejected' (shown to its author), otherwise null. */
  rejectionReason: z.string().nullable(),
  /** Running right now: active, started, not ended (budgets aside). */
  running: z.boolean(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  averageRating: z.number(),
  reviewCount: z.number().int(),
  /** All-time counted impressions, clicks and conversions (the author's own list). */
  viewCount: z.number().int(),
  clickCount: z.number().int(),
  conversionCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Advertisement = z.infer<typeof advertisementSchema>;

export const adAnswerSchema = z.object({ ad: advertisementSchema });

export const adListPageSchema = z.object({
  items: z.array(advertisementSchema),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  /** How many of the author's ads each tab holds. */
  counts: z.object({
    all: z.number().int(),
    active: z.number().int(),
    paused: z.number().int(),
    draft: z.number().int(),
    expired: z.number().int(),
  }),
});
export type AdListPage = z.infer<typeof adListPageSchema>;

/** A sponsored card: what the promoted list and the slots show. */
export const adCardSchema = z.object({
  id: z.string(),
  title: z.string(),
  subtitle: z.string().nullable(),
  description: z.string(),
  genre: z.enum(AD_GENRES),
  adType: z.enum(AD_TYPES),
  keywords: z.array(z.string()),
  coverImageUrl: z.string().nullable(),
  bookPrice: z.number().nullable(),
  currency: z.enum(AD_CURRENCIES),
  averageRating: z.number(),
  reviewCount: z.number().int(),
  /** On whose behalf the ad runs. */
  sponsor: z.object({
    id: z.string(),
    displayName: z.string(),
    username: z.string().nullable(),
    avatarUrl: z.string().nullable(),
  }),
});
export type AdCard = z.infer<typeof adCardSchema>;

export const promotedPageSchema = pageOf(adCardSchema);
export type PromotedPage = z.infer<typeof promotedPageSchema>;

/** A slot's ad: the card plus why it is shown (its genre and keywords, and what matched). */
export const slotAdSchema = adCardSchema.extend({
  reasons: z.object({
    genre: z.enum(AD_GENRES),
    keywords: z.array(z.string()),
    /** The ad's genre is the genre the reader is looking at. */
    matchedGenre: z.boolean(),
    /** The ad's keywords found in the reader's search. */
    matchedKeywords: z.array(z.string()),
  }),
});
export type SlotAd = z.infer<typeof slotAdSchema>;
export const adSlotAnswerSchema = z.object({ items: z.array(slotAdSchema) });
export type AdSlotAnswer = z.infer<typeof adSlotAnswerSchema>;

export const adEventAnswerSchema = z.object({
  received: z.literal(true),
  /** Impressions only: what the click on this ad sends back (valid for this viewer, today). */
  token: z.string().optional(),
});

export const adDayFiguresSchema = z.object({
  /** YYYY-MM-DD (UTC). */
  date: z.string(),
  impressions: z.number().int(),
  clicks: z.number().int(),
  conversions: z.number().int(),
  cost: z.number(),
});
export type AdDayFigures = z.infer<typeof adDayFiguresSchema>;

export const adAnalyticsSchema = z.object({
  adId: z.string(),
  timeframe: z.enum(AD_TIMEFRAMES),
  /** First and last day of the series (inclusive, UTC). */
  from: z.string(),
  to: z.string(),
  currency: z.enum(AD_CURRENCIES),
  costPerClick: z.number(),
  totals: z.object({
    impressions: z.number().int(),
    clicks: z.number().int(),
    /** Clicks charged: those past the daily or total budget are counted but not billed. */
    billedClicks: z.number().int(),
    conversions: z.number().int(),
    /** clicks / impressions × 100, 2 decimals (0 when there is no impression). */
    clickRate: z.number(),
    /** conversions / clicks × 100, 2 decimals (0 when there is no click). */
    conversionRate: z.number(),
    /** Billed clicks × cost per click. */
    cost: z.number(),
  }),
  /** Every day of the timeframe, days without events included (zeros). */
  series: z.array(adDayFiguresSchema),
  /** The 20 most recent counted events, newest first. */
  recent: z.array(
    z.object({
      kind: z.enum(AD_EVENT_KINDS),
      at: z.string(),
      placement: z.enum(AD_PLACEMENTS).nullable(),
      /** Only with the viewer's marketing consent. */
      device: z.enum(['mobile', 'tablet', 'desktop']).nullable(),
      referrer: z.string().nullable(),
    }),
  ),
  /** Budgets as they stand today. */
  budget: z.object({
    dailyBudget: z.number(),
    totalBudget: z.number(),
    spentToday: z.number(),
    spentTotal: z.number(),
    /** 'ok', or why the ad is not served: daily budget reached (until tomorrow) or total. */
    state: z.enum(['ok', 'dailyReached', 'totalReached']),
  }),
});
export type AdAnalytics = z.infer<typeof adAnalyticsSchema>;

export const adReviewAnswerSchema = z.object({
  id: z.string(),
  adId: z.string(),
  reviewer: z.object({
    id: z.string(),
    displayName: z.string(),
    username: z.string().nullable(),
    avatarUrl: z.string().nullable(),
  }),
  rating: z.number().int(),
  text: z.string(),
  verifiedPurchase: z.boolean(),
  createdAt: z.string(),
});
export type AdReview = z.infer<typeof adReviewAnswerSchema>;

export const adReviewPageSchema = pageOf(adReviewAnswerSchema).extend({
  averageRating: z.number(),
});
export type AdReviewPage = z.infer<typeof adReviewPageSchema>;
export const adReviewCreatedSchema = z.object({ review: adReviewAnswerSchema });

/** Click rate and conversion rate: a percentage with 2 decimals, 0 when the base is 0. */
export function ratePercent(part: number, whole: number): number {
  if (!whole) return 0;
  return Math.round((part / whole) * 10000) / 100;
}
