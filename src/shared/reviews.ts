import { z } from 'zod';
import { pageOf } from './schemas/common';

export const REVIEW_TEXT_MAX = 1000;
/** A review may be edited this long after it was written, while it is not yet published. */
export const REVIEW_EDIT_DAYS = 14;
/**
 * Double-blind (decision 0073): each party reviews within this many days of the transaction's
 * completion; a review is published when the other party has written theirs too, or at the end
 * of these days, whichever comes first. Until then only its author sees it.
 */
export const REVIEW_WINDOW_DAYS = 14;
export const REVIEWS_PAGE_SIZE = 10;

const rating = z
  .number({ error: 'reviews.errors.ratingRequired' })
  .int({ error: 'reviews.errors.ratingRequired' })
  .min(1, { error: 'reviews.errors.ratingRequired' })
  .max(5, { error: 'reviews.errors.ratingRequired' });
const text = z.string().trim().max(REVIEW_TEXT_MAX, { error: 'reviews.errors.textTooLong' });

export const createReviewSchema = z.object({
  transactionId: z.string({ error: 'validation.required' }).max(64),
  rating,
  text: text.optional().default(''),
});
export type CreateReviewInput = z.input<typeof createReviewSchema>;

export const editReviewSchema = z
  .object({ rating: rating.optional(), text: text.optional() })
  .refine((v) => v.rating !== undefined || v.text !== undefined, {
    error: 'errors.badRequest',
  });
export type EditReviewInput = z.input<typeof editReviewSchema>;

export const reviewSchema = z.object({
  id: z.string(),
  transactionId: z.string(),
  rating: z.number().int(),
  text: z.string(),
  author: z.object({ id: z.string(), displayName: z.string(), username: z.string().nullable() }),
  subjectId: z.string(),
  /** What was traded, for context ("bought 'Il nome della rosa'"). */
  listingTitle: z.string().nullable(),
  kind: z.enum(['sale', 'trade']),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Until when its author may still edit it: within 14 days of writing it, and until published. */
  editableUntil: z.string(),
  /** Shown to others: the other party wrote theirs too, or the 14 days are over. */
  published: z.boolean(),
  /** When it was published or, while pending, when it will be at the latest. */
  publishedAt: z.string(),
});
export type Review = z.infer<typeof reviewSchema>;

export const reviewPageSchema = pageOf(reviewSchema).extend({
  /** Mean of every review, one decimal; null while there is none. */
  average: z.number().nullable(),
});
export type ReviewPage = z.infer<typeof reviewPageSchema>;

/** A completed transaction of mine, with the review I gave (if any) and the one I received. */
export const tradeSchema = z.object({
  transactionId: z.string(),
  kind: z.enum(['sale', 'trade']),
  role: z.enum(['buyer', 'seller']),
  listingTitle: z.string().nullable(),
  /**
   * A trade's books (issue 33 item 8: one trade, one review each way): the titles I gave and
   * those I received. Null for a sale.
   */
  books: z.object({ given: z.array(z.string()), received: z.array(z.string()) }).nullable(),
  other: z.object({
    id: z.string(),
    displayName: z.string(),
    username: z.string().nullable(),
    /** The other party deleted their account (shown as "Deleted member"). */
    deleted: z.boolean().optional(),
  }),
  completedAt: z.string(),
  /**
   * Both members agreed to it (accepted offer or confirmation), the other still has an account and
   * its 14 days to review are not over: only then can a review be written.
   */
  reviewable: z.boolean(),
  /** The end of the 14 days to review it (from its completion). */
  reviewableUntil: z.string(),
  myReview: reviewSchema.nullable(),
  /** The other party's review of me, once published (never before: double-blind). */
  theirReview: reviewSchema.nullable(),
  /** The other party reviewed me and it waits for mine: no rating, no text, only that it exists. */
  theirReviewWaiting: z.boolean(),
});
export type Trade = z.infer<typeof tradeSchema>;
export const tradePageSchema = pageOf(tradeSchema);
export type TradePage = z.infer<typeof tradePageSchema>;
