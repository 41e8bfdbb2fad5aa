import type Stripe from 'stripe';
import { isUuid } from '@shared/schemas/common';
import { AppError, badRequest, notFound } from '../../platform/errors';
import { inTransaction, type Query } from '../../db/tx';
import { recordAccount } from './accounts';
import { loadPayment, type PaymentsContext } from './queries';
import { settle } from './settle';

/**
 * Stripe's webhook: the event is verified against STRIPE_WEBHOOK_SECRET (a forged or altered one
 * is a 400), then handled once: its id is stored in the same transaction as what it changes, so a
 * replayed or repeated event changes nothing. Events the app does not use are stored and ignored.
 * A failure on our side answers 503 and Stripe sends the event again.
 */
export async function receiveEvent(
  ctx: PaymentsContext,
  body: Buffer | string,
  signature: string | undefined,
): Promise<{ duplicate: boolean }> {
  const { stripe, settings } = ctx;
  if (!stripe || !settings) throw notFound();
  // The platform's endpoint and the Connect endpoint (connected accounts' events) each have a
  // signing secret: either may have signed.
  let event: Stripe.Event | undefined;
  for (const secret of settings.webhookSecret
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    try {
      event = stripe.webhooks.constructEvent(body, signature ?? '', secret);
      break;
    } catch {
      // Not this secret's.
    }
  }
  if (!event) throw badRequest('payments.errors.signature');
  let paidDeal: string | null = null;
  let duplicate: boolean;
  try {
    duplicate = await inTransaction(ctx.database, async (q) => {
      const fresh = await q(
        `insert into payment_events (id, type) values ($1, $2)
         on conflict (id) do nothing returning id`,
        [event.id, event.type],
      );
      if (fresh.length === 0) return true;
      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded':
          paidDeal = await recordCharge(ctx, q, event.data.object);
          break;
        case 'account.updated':
          await recordAccount(q, event.data.object, ctx.now(), settings.payWithinHours);
          break;
        case 'charge.dispute.created':
          await recordDispute(q, event.data.object);
          break;
      }
      return false;
    });
  } catch (err) {
    ctx.log.error({ err, event: event.id, type: event.type }, 'payments: event not handled');
    throw new AppError(503, 'unavailable', 'payments.errors.eventFailed');
  }
  if (paidDeal) {
    const [paid] = await ctx.query<{ total_cents: number }>(
      'select total_cents from deal_payments where deal_id = $1',
      [paidDeal],
    );
    await ctx
      .tell?.(paidDeal, 'paid', paid.total_cents)
      .catch((err: unknown) =>
        ctx.log.warn({ err, dealId: paidDeal }, 'payments: the payment was not told'),
      );
    // A payment that arrives after its deal ended is released or refunded at once.
    await settle(ctx, paidDeal);
  }
  return { duplicate };
}

/**
 * A Checkout session paid: the charge (what the buyer paid, fee included) and the fee become
 * ledger rows and the deal's payment is held. The amount must be the one the server asked for;
 * a second payment for a deal already paid is left to reconciliation, which reports it.
 */
async function recordCharge(
  ctx: PaymentsContext,
  q: Query,
  session: Stripe.Checkout.Session,
): Promise<string | null> {
  if (session.mode !== 'payment' || session.payment_status !== 'paid') return null;
  const dealId = session.metadata?.deal_id;
  const intent =
    typeof session.payment_intent === 'string'
      ? session.payment_intent
      : session.payment_intent?.id;
  if (!dealId || !isUuid(dealId) || !intent) return null;
  const payment = await loadPayment(q, dealId, true);
  if (!payment) {
    ctx.log.warn({ dealId, session: session.id }, 'payments: a payment for no known deal');
    return null;
  }
  // A deal that ended unpaid (void) takes the payment, which settle then refunds.
  if (payment.status !== 'due' && payment.status !== 'void') {
    ctx.log.error({ dealId, session: session.id }, 'payments: a second payment for a paid deal');
    return null;
  }
  if (
    session.amount_total !== payment.total_cents ||
    session.currency?.toLowerCase() !== payment.currency.toLowerCase()
  ) {
    ctx.log.error(
      { dealId, session: session.id, paid: session.amount_total, due: payment.total_cents },
      'payments: the amount paid is not the amount due',
    );
    return null;
  }
  const [deal] = await q<{ buyer_id: string }>('select buyer_id from deals where id = $1', [
    dealId,
  ]);
  await q(
    `insert into payment_ledger (deal_id, member_id, kind, amount_cents, currency, stripe_id,
       confirmed_at)
     values ($1, $2, 'charge', $3, $5, $6, now()), ($1, null, 'fee', $4, $5, $6, now())`,
    [dealId, deal.buyer_id, payment.total_cents, payment.fee_cents, payment.currency, intent],
  );
  await q(
    `update deal_payments set status = 'paid', paid_at = $2, payment_intent_id = $3,
       checkout_session_id = $4, ended_at = null
     where deal_id = $1`,
    [dealId, ctx.now(), intent, session.id],
  );
  return dealId;
}

/** A dispute the buyer's bank opened on a deal's payment: a ledger row (the admins follow up). */
async function recordDispute(q: Query, dispute: Stripe.Dispute): Promise<void> {
  const intent =
    typeof dispute.payment_intent === 'string'
      ? dispute.payment_intent
      : dispute.payment_intent?.id;
  if (!intent) return;
  await q(
    `insert into payment_ledger (deal_id, member_id, kind, amount_cents, currency, stripe_id,
       confirmed_at)
     select p.deal_id, d.buyer_id, 'dispute', $2, p.currency, $3, now()
     from deal_payments p join deals d on d.id = p.deal_id
     where p.payment_intent_id = $1
     on conflict do nothing`,
    [intent, dispute.amount, dispute.id],
  );
}
