import { z } from 'zod';
import { CURRENCIES, isWholeCents } from '../marketplace';
import { DEAL_METHODS } from './deals';
import { offerAmountField } from './chats';

/**
 * Bundles (issue 22 item 3, decision 0076): a buyer puts several available books of one seller
 * in one offer, with one shipping cost by the seller's rule. The bundle being built lives in the
 * browser; the server checks everything when the offer is sent.
 */
export const BUNDLE_MIN_LISTINGS = 2;
export const BUNDLE_MAX_LISTINGS = 20;
/** The highest bundle shipping price a seller may set. */
export const BUNDLE_MAX_SHIPPING = 1000;

const listingIds = (min: number) =>
  z
    .array(z.string({ error: 'deals.bundle.errors.listingIds' }).max(64), {
      error: 'deals.bundle.errors.listingIds',
    })
    .min(min, { error: 'deals.bundle.errors.tooFew' })
    .max(BUNDLE_MAX_LISTINGS, { error: 'deals.bundle.errors.tooMany' });

/** POST /api/chats/bundles: one offer for 2 to 20 books of one seller. */
export const bundleOfferSchema = z.object({
  listingIds: listingIds(BUNDLE_MIN_LISTINGS),
  /** The offer for the books, shipping excluded. */
  amount: offerAmountField(),
  /** 'post' (every book must ship; one shipping cost by the seller's rule) or 'hand'. */
  delivery: z.enum(DEAL_METHODS, { error: 'validation.invalid' }).optional(),
});
export type BundleOfferInput = z.input<typeof bundleOfferSchema>;

/** POST /api/bundles/quote: what a bundle being built costs (one book is already a quote). */
export const bundleQuoteSchema = z.object({ listingIds: listingIds(1) });

/** The seller's rule: null, the highest single shipping cost; an amount, that bundle price. */
export const bundleRuleSchema = z.object({
  shippingAmount: z
    .number({ error: 'deals.bundle.errors.ruleAmount' })
    .min(0, { error: 'deals.bundle.errors.ruleAmount' })
    .max(BUNDLE_MAX_SHIPPING, { error: 'deals.bundle.errors.ruleAmount' })
    .refine(isWholeCents, { error: 'deals.bundle.errors.ruleAmount' })
    .nullable(),
});
export type BundleRule = z.infer<typeof bundleRuleSchema>;
export const bundleRuleAnswerSchema = z.object({ rule: bundleRuleSchema });

export const bundleQuoteListingSchema = z.object({
  id: z.string(),
  title: z.string(),
  author: z.string(),
  coverUrl: z.string().nullable(),
  price: z.number().nullable(),
  shippingCost: z.number().nullable(),
  /** False when it is no longer available (reserved, sold): the buyer removes it. */
  available: z.boolean(),
});

export const bundleQuoteSchemaAnswer = z.object({
  seller: z.object({ id: z.string(), displayName: z.string() }),
  listings: z.array(bundleQuoteListingSchema),
  currency: z.enum(CURRENCIES),
  rule: bundleRuleSchema,
  /** The asking prices added up (books for trade count nothing). */
  booksTotal: z.number(),
  /**
   * The bundle's one shipping cost by post: the seller's bundle price when they set one (their
   * promise for the whole parcel, whatever each book's own terms), else the highest single cost;
   * null when post is not possible.
   */
  shipping: z.number().nullable(),
  /** The titles of the books that make post impossible (hand to hand only); empty when it is. */
  handOnly: z.array(z.string()),
});
export type BundleQuote = z.infer<typeof bundleQuoteSchemaAnswer>;

/**
 * The bundle's one shipping cost (decision 0076, issue 33): the price the seller set for a bundle
 * is what they promised for the whole parcel, so it holds even when a book alone is handed over
 * only; without one, the highest single shipping cost, and no post when a book is not shipped.
 */
export function bundleShipping(rule: BundleRule, costs: (number | null)[]): number | null {
  if (costs.length === 0) return null;
  if (rule.shippingAmount !== null) return rule.shippingAmount;
  if (costs.some((c) => c === null)) return null;
  return Math.max(...(costs as number[]));
}

/** The books that make post impossible under `rule` (none when the seller set a bundle price). */
export function bundleHandOnly<T extends { shippingCost: number | null }>(
  rule: BundleRule,
  books: readonly T[],
): T[] {
  return rule.shippingAmount !== null ? [] : books.filter((b) => b.shippingCost === null);
}
