import type { Language } from '@shared/constants';
import { AppError, conflict, forbidden } from '../../platform/errors';
import { t } from '../../platform/i18n';
import { inTransaction } from '../../db/tx';
import { isUuid } from '@shared/schemas/common';
import { dealNotFound, dealNotOpen, loadDeal } from '../deals';
import { paymentsOff } from './accounts';
import { loadAccount, loadPayment, type PaymentsContext } from './queries';
import { providerFailed, transferGroup } from './stripe';

/** Checkout sessions live between 30 minutes and 24 hours (Stripe's bounds), a minute inside. */
const SESSION_MIN_S = 31 * 60;
const SESSION_MAX_S = 23 * 3600 + 59 * 60;

/**
 * The buyer's payment of an open deal: the URL of Stripe's hosted Checkout for the amount the
 * server computed when the deal opened (books and shipping as agreed, plus the fee). One attempt
 * at a time: while the latest session is open its URL is given again; once it expired a new
 * attempt is claimed in a transaction, so two clicks never open two payable sessions, and the
 * session is created with the idempotency key of that attempt.
 */
export async function checkoutUrl(
  ctx: PaymentsContext,
  buyerId: string,
  dealId: string,
  language: Language,
): Promise<string> {
  const { stripe, query } = ctx;
  const deal = isUuid(dealId) ? await loadDeal(query, dealId) : null;
  if (!deal || (deal.buyerId !== buyerId && deal.sellerId !== buyerId)) throw dealNotFound();
  if (deal.buyerId !== buyerId) throw forbidden('payments.errors.buyerOnly');
  if (!stripe) throw paymentsOff();
  if (deal.status !== 'open') throw dealNotOpen();
  const payment = await loadPayment(query, dealId);
  if (!payment) throw conflict('payments.errors.notPayable');
  if (payment.status !== 'due') throw conflict('payments.errors.alreadyPaid');
  const seller = await loadAccount(query, deal.sellerId);
  if (!seller?.transfers_active) throw conflict('payments.errors.sellerNotReady');

  try {
    if (payment.checkout_session_id) {
      const latest = await stripe.checkout.sessions.retrieve(payment.checkout_session_id);
      if (latest.status === 'open' && latest.url) return latest.url;
      // Paid, and the webhook is on its way.
      if (latest.status === 'complete') throw conflict('payments.errors.processing');
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    ctx.log.warn({ err, dealId }, 'payments: checkout session not read');
    throw providerFailed();
  }

  const attempt = await inTransaction(ctx.database, async (q) => {
    const row = await loadPayment(q, dealId, true);
    if (row?.status !== 'due') throw conflict('payments.errors.alreadyPaid');
    if (
      row.checkout_attempt !== payment.checkout_attempt ||
      row.checkout_session_id !== payment.checkout_session_id
    )
      throw conflict('payments.errors.race');
    await q('update deal_payments set checkout_attempt = $2 where deal_id = $1', [
      dealId,
      row.checkout_attempt + 1,
    ]);
    return row.checkout_attempt + 1;
  });

  const books = await query<{ title: string }>(
    'select title from deal_books where deal_id = $1 order by position',
    [dealId],
  );
  const titles = books.map((b) => `“${b.title}”`).join(', ');
  const currency = payment.currency.toLowerCase();
  const line = (name: string, cents: number) => ({
    quantity: 1,
    price_data: { currency, unit_amount: cents, product_data: { name: name.slice(0, 250) } },
  });
  const chat = `${ctx.publicUrl}/profile/${encodeURIComponent(buyerId)}/chats?room=${encodeURIComponent(deal.roomId)}`;
  const now = ctx.now().getTime();
  const untilDue = payment.due_by
    ? Math.floor((new Date(payment.due_by).getTime() - now) / 1000)
    : SESSION_MAX_S;
  try {
    const session = await stripe.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [
          line(t(language, 'payments.checkout.books', { titles }), payment.books_cents),
          ...(payment.shipping_cents > 0
            ? [line(t(language, 'payments.checkout.shipping'), payment.shipping_cents)]
            : []),
          line(t(language, 'payments.checkout.fee'), payment.fee_cents),
        ],
        metadata: { deal_id: dealId },
        client_reference_id: dealId,
        payment_intent_data: {
          transfer_group: transferGroup(dealId),
          metadata: { deal_id: dealId },
        },
        locale: language,
        // Stripe's clock, not the app's: the session closes by the time limit when it can.
        expires_at:
          Math.floor(Date.now() / 1000) +
          Math.min(SESSION_MAX_S, Math.max(SESSION_MIN_S, untilDue)),
        success_url: `${chat}&payment=done`,
        cancel_url: `${chat}&payment=cancelled`,
      },
      { idempotencyKey: `checkout-${dealId}-${attempt}` },
    );
    await query(
      `update deal_payments set checkout_session_id = $2
       where deal_id = $1 and checkout_attempt = $3 and status = 'due'`,
      [dealId, session.id, attempt],
    );
    if (!session.url) throw new Error('a Checkout session without a URL');
    return session.url;
  } catch (err) {
    ctx.log.warn({ err, dealId }, 'payments: checkout session not created');
    throw providerFailed();
  }
}
