import { randomUUID } from 'node:crypto';
import type { Query } from '../../db/tx';

/**
 * A member's payments in "Download my data" (GDPR articles 15 and 20): their connected account,
 * what each of their deals paid (as buyer or seller) and the ledger's rows of those deals, with
 * Stripe's ids.
 */
export async function exportPayments(q: Query, userId: string) {
  const [account] = await q(
    `select stripe_account_id as "stripeAccountId", details_submitted as "detailsSubmitted",
       payouts_enabled as "payoutsEnabled", transfers_active as "transfersActive",
       created_at as "createdAt"
     from payment_accounts where user_id = $1`,
    [userId],
  );
  const deals = await q(
    `select p.deal_id as "dealId",
       case when d.buyer_id = $1 then 'buyer' else 'seller' end as role,
       p.status, p.currency, p.books_cents as "booksCents", p.shipping_cents as "shippingCents",
       p.fee_cents as "feeCents", p.total_cents as "totalCents", p.due_by as "dueBy",
       p.paid_at as "paidAt", p.ended_at as "endedAt", p.checkout_session_id as "checkoutSessionId",
       p.payment_intent_id as "paymentIntentId"
     from deal_payments p join deals d on d.id = p.deal_id
     where d.buyer_id = $1 or d.seller_id = $1 order by p.created_at, p.deal_id`,
    [userId],
  );
  const ledger = await q(
    `select l.deal_id as "dealId", l.kind, l.amount_cents as "amountCents", l.currency,
       l.stripe_id as "stripeId", l.created_at as "createdAt", l.confirmed_at as "confirmedAt"
     from payment_ledger l join deals d on d.id = l.deal_id
     where d.buyer_id = $1 or d.seller_id = $1 order by l.created_at, l.id`,
    [userId],
  );
  return { account: account ?? null, deals, ledger };
}

/**
 * What "Delete my account" does to payments (inside the erasure's transaction). The ledger is
 * the accounting record the law requires to be kept (amounts, times, Stripe's ids, for ten years
 * in Italy): its rows stay, but name the member by a pseudonym of its own, one for all their
 * rows, instead of their account. The connected account's link goes unless a deal of theirs
 * still holds money to send them (the recovery job pays it; the deal names the account).
 */
export async function erasePayments(q: Query, userId: string): Promise<void> {
  await q(`update payment_ledger set member_id = $2 where member_id = $1`, [
    userId,
    `erased-${randomUUID()}`,
  ]);
  await q(
    `delete from payment_accounts a where a.user_id = $1 and not exists (
       select 1 from deal_payments p join deals d on d.id = p.deal_id
       where d.seller_id = $1 and (p.status = 'paid' or (p.status = 'due' and d.status = 'open')))`,
    [userId],
  );
}
