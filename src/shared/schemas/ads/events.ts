import { z } from 'zod';
import { v, toNumber } from './fields';
import { AD_EVENT_KINDS, AD_PLACEMENTS, AD_PURCHASE_STORES, AD_REVIEW_MAX } from './constants';

/** Advertisements: the bodies of an event (impression, click, conversion) and of a review. */

/**
 * POST /api/ads/:id/events. `consent` is the visitor's marketing consent as recorded by the
 * cookie banner (kept in the browser only): with it the user agent, referrer and device class are
 * stored with the event; without it only the kind, placement and day.
 */
export const adEventSchema = z.object({
  kind: z.enum(AD_EVENT_KINDS, { error: v('eventKindInvalid') }),
  placement: z.enum(AD_PLACEMENTS, { error: v('placementInvalid') }).optional(),
  consent: z.boolean({ error: v('invalid') }).optional(),
  /** The page the reader came from (document.referrer), kept only with consent. */
  referrer: z
    .string({ error: v('invalid') })
    .max(500, { error: v('tooLong') })
    .optional(),
  /** For conversions: which purchase link was followed. */
  store: z.enum(AD_PURCHASE_STORES, { error: v('purchaseStoreUnknown') }).optional(),
  /** For clicks: the token the impression of this ad was answered with (same viewer, same day). */
  token: z
    .string({ error: v('invalid') })
    .max(200, { error: v('invalid') })
    .optional(),
});
export type AdEventInput = z.input<typeof adEventSchema>;

export const adReviewSchema = z.object({
  rating: z.preprocess(
    toNumber,
    z
      .number({ error: v('ratingInvalid') })
      .int({ error: v('ratingInvalid') })
      .min(1, { error: v('ratingInvalid') })
      .max(5, { error: v('ratingInvalid') }),
  ),
  text: z
    .string({ error: v('reviewRequired') })
    .trim()
    .min(1, { error: v('reviewRequired') })
    .max(AD_REVIEW_MAX, { error: v('reviewTooLong') }),
});
export type AdReviewInput = z.input<typeof adReviewSchema>;
