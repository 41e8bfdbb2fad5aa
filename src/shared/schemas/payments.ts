import { z } from 'zod';
import { CURRENCIES } from '../marketplaceConstants';

/**
 * In-app payments with buyer protection (issue 36, decision 0089). Amounts are whole cents of the
 * deal's currency, computed by the server from the agreed offer (books and shipping) and the fee.
 *
 * A deal's payment: due (the buyer pays), paid (the platform holds the money), released (the
 * seller's share is sent; a case may have refunded part of it first), refunded (all back to the
 * buyer), void (the deal ended without an in-app payment).
 */
export const PAYMENT_STATUSES = ['due', 'paid', 'released', 'refunded', 'void'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** An amount as whole cents: 12.5 is 1250. */
export const toCents = (amount: number | string): number => Math.round(Number(amount) * 100);

/**
 * The buyer-protection fee on `subtotalCents` (books and shipping): `percent` of it, rounded to
 * the cent, plus `fixedCents`.
 */
export function buyerFeeCents(subtotalCents: number, percent: number, fixedCents: number): number {
  return Math.round((subtotalCents * Math.round(percent * 100)) / 10_000) + fixedCents;
}

export const feeSchema = z.object({ percent: z.number(), fixedCents: z.number().int() });

export const dealPaymentSchema = z.object({
  status: z.enum(PAYMENT_STATUSES),
  currency: z.enum(CURRENCIES),
  booksCents: z.number().int(),
  shippingCents: z.number().int(),
  feeCents: z.number().int(),
  totalCents: z.number().int(),
  /** The buyer pays by then or the deal is cancelled; null: no limit (hand to hand). */
  dueBy: z.string().nullable(),
  paidAt: z.string().nullable(),
  /** Sent to the seller, and back to the buyer, so far. */
  releasedCents: z.number().int(),
  refundedCents: z.number().int(),
  /** The seller has set up payments: the buyer can pay in the app. */
  sellerReady: z.boolean(),
});
export type DealPayment = z.infer<typeof dealPaymentSchema>;

export const dealPaymentAnswerSchema = z.object({
  /** In-app payment is on for this site. */
  enabled: z.boolean(),
  fee: feeSchema.nullable(),
  /** Null when the deal is paid outside the app (a trade, payments off when it was agreed). */
  payment: dealPaymentSchema.nullable(),
});
export type DealPaymentAnswer = z.infer<typeof dealPaymentAnswerSchema>;

/** GET /api/payments/fee: whether payments are on here, and what the buyer's protection costs. */
export const paymentsFeeSchema = z.object({
  enabled: z.boolean(),
  fee: feeSchema.nullable(),
  /** Hours the buyer of a deal by post has to pay; null when payments are off. */
  payWithinHours: z.number().nullable(),
});
export type PaymentsFee = z.infer<typeof paymentsFeeSchema>;

/** Where the browser goes next: Stripe's hosted Checkout or onboarding page. */
export const redirectAnswerSchema = z.object({ url: z.string() });

export const PAYMENT_ACCOUNT_STATES = ['none', 'pending', 'ready'] as const;

export const paymentsOverviewSchema = z.object({
  enabled: z.boolean(),
  fee: feeSchema.nullable(),
  /** none: not set up; pending: onboarding not finished; ready: the seller can be paid. */
  account: z.object({
    state: z.enum(PAYMENT_ACCOUNT_STATES),
    detailsSubmitted: z.boolean(),
    payoutsEnabled: z.boolean(),
  }),
  /** The seller's money by currency: held for open deals, sent to them, refunded to buyers. */
  money: z.array(
    z.object({
      currency: z.enum(CURRENCIES),
      heldCents: z.number().int(),
      releasedCents: z.number().int(),
      refundedCents: z.number().int(),
    }),
  ),
});
export type PaymentsOverview = z.infer<typeof paymentsOverviewSchema>;

export const reconciliationSchema = z.object({
  checked: z.number().int(),
  differences: z.array(
    z.object({
      dealId: z.string().nullable(),
      kind: z.string(),
      stripeId: z.string().nullable(),
      ledgerCents: z.number().int().nullable(),
      stripeCents: z.number().int().nullable(),
      problem: z.string(),
    }),
  ),
});
export type Reconciliation = z.infer<typeof reconciliationSchema>;
