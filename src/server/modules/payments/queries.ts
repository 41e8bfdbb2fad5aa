import type Stripe from 'stripe';
import type { FastifyBaseLogger } from 'fastify';
import { buyerFeeCents, toCents, type PaymentStatus } from '@shared/schemas/payments';
import type { Config, PaymentsConfig } from '../../config';
import type { Database } from '../../db/client';
import type { Query } from '../../db/tx';

/** What the payments module's functions share. `stripe` is null when payments are off. */
export interface PaymentsContext {
  settings: PaymentsConfig | undefined;
  stripe: Stripe | null;
  database: Database;
  query: Query;
  publicUrl: string;
  log: FastifyBaseLogger;
  now: () => Date;
  /**
   * Tells both sides that a deal's money moved (receipts.ts: the conversation's line, e-mails),
   * once per movement, after it is recorded; absent in tests of the bare functions.
   */
  tell?: (
    dealId: string,
    movement: 'paid' | 'released' | 'refunded',
    cents: number,
  ) => Promise<void>;
}

export interface PaymentRow {
  deal_id: string;
  status: PaymentStatus;
  currency: string;
  books_cents: number;
  shipping_cents: number;
  fee_cents: number;
  total_cents: number;
  due_by: Date | string | null;
  checkout_attempt: number;
  checkout_session_id: string | null;
  payment_intent_id: string | null;
  paid_at: Date | string | null;
}

/** A deal's payment; `lock` takes its row for update (inside a transaction). */
export async function loadPayment(
  q: Query,
  dealId: string,
  lock = false,
): Promise<PaymentRow | null> {
  const [row] = await q<PaymentRow>(
    `select deal_id::text, status, currency, books_cents, shipping_cents, fee_cents, total_cents,
       due_by, checkout_attempt, checkout_session_id, payment_intent_id, paid_at
     from deal_payments where deal_id = $1 ${lock ? 'for update' : ''}`,
    [dealId],
  );
  return row ?? null;
}

export interface AccountRow {
  stripe_account_id: string;
  details_submitted: boolean;
  payouts_enabled: boolean;
  transfers_active: boolean;
}

export async function loadAccount(q: Query, userId: string): Promise<AccountRow | null> {
  const [row] = await q<AccountRow>(
    `select stripe_account_id, details_submitted, payouts_enabled, transfers_active
     from payment_accounts where user_id = $1`,
    [userId],
  );
  return row ?? null;
}

/** The movements of a deal so far, by kind (claims not yet confirmed by Stripe included). */
export async function dealMovements(
  q: Query,
  dealId: string,
): Promise<Record<'charge' | 'fee' | 'transfer' | 'refund', number>> {
  const rows = await q<{ kind: string; cents: number }>(
    `select kind, sum(amount_cents)::int as cents from payment_ledger
     where deal_id = $1 and kind <> 'dispute' group by kind`,
    [dealId],
  );
  const by = Object.fromEntries(rows.map((r) => [r.kind, Number(r.cents)]));
  return {
    charge: by.charge ?? 0,
    fee: by.fee ?? 0,
    transfer: by.transfer ?? 0,
    refund: by.refund ?? 0,
  };
}

/**
 * Writes what the buyer of a deal being opened pays (in the accepting transaction), when payments
 * are on and the deal is a sale with an amount: the agreed offer's books and shipping, in cents,
 * plus the fee. A deal by post is paid within the time limit; a deal hand to hand may be paid in
 * the app or in person (no limit).
 */
export async function openDealPayment(
  q: Query,
  dealId: string,
  deps: { config: Pick<Config, 'payments'>; now: () => Date },
): Promise<void> {
  const settings = deps.config.payments;
  if (!settings) return;
  const [offer] = await q<{
    kind: string;
    amount: string | null;
    shipping_amount: string | null;
    currency: string;
    method: 'post' | 'hand';
  }>(
    `select o.kind, o.amount, o.shipping_amount, o.currency, d.method
     from deals d join offers o on o.id = d.offer_id where d.id = $1`,
    [dealId],
  );
  if (!offer || offer.kind !== 'sale' || offer.amount === null) return;
  const books = toCents(offer.amount);
  const shipping = offer.shipping_amount === null ? 0 : toCents(offer.shipping_amount);
  if (books + shipping <= 0) return;
  const fee = buyerFeeCents(
    books + shipping,
    settings.buyerFeePercent,
    settings.buyerFeeFixedCents,
  );
  const dueBy =
    offer.method === 'post'
      ? new Date(deps.now().getTime() + settings.payWithinHours * 3_600_000)
      : null;
  await q(
    `insert into deal_payments (deal_id, currency, books_cents, shipping_cents, fee_cents,
       total_cents, due_by)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [dealId, offer.currency, books, shipping, fee, books + shipping + fee, dueBy],
  );
}

/**
 * Refuses (409) a step that needs the buyer's payment first, e.g. shipping a parcel: only while a
 * payment is due (a deal paid outside the app has no payment row).
 */
export async function paymentDue(q: Query, dealId: string): Promise<boolean> {
  const [row] = await q<{ status: string }>('select status from deal_payments where deal_id = $1', [
    dealId,
  ]);
  return row?.status === 'due';
}
