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
  /** The bundle's one shipping cost by post; null when a book is not shipped (hand only). */
  shipping: z.number().nullable(),
});
export type BundleQuote = z.infer<typeof bundleQuoteSchemaAnswer>;

/** The bundle's one shipping cost: the seller's price, else the highest single one. */
export function bundleShipping(rule: BundleRule, costs: (number | null)[]): number | null {
  if (costs.length === 0 || costs.some((c) => c === null)) return null;
  if (rule.shippingAmount !== null) return rule.shippingAmount;
  return Math.max(...(costs as number[]));
}
