import type { DealPaymentAnswer } from '@shared/schemas/payments';
import { isUuid } from '@shared/schemas/common';
import { isAdmin } from '../../platform/moderation';
import { dealNotFound, loadDeal } from '../deals';
import { dealMovements, loadAccount, loadPayment, type PaymentsContext } from './queries';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * A deal's payment as its buyer or seller sees it, or an admin reading the deal's problem case
 * (what was paid, before they decide its refund); anyone else gets 404, as for a missing deal.
 */
export async function readDealPayment(
  ctx: PaymentsContext,
  userId: string,
  dealId: string,
): Promise<DealPaymentAnswer> {
  const { query, settings } = ctx;
  const deal = isUuid(dealId) ? await loadDeal(query, dealId) : null;
  if (!deal) throw dealNotFound();
  if (deal.buyerId !== userId && deal.sellerId !== userId) {
    const [found] = await query('select 1 from deal_cases where deal_id = $1', [dealId]);
    if (!found || !(await isAdmin(query, userId))) throw dealNotFound();
  }
  const fee = settings
    ? { percent: settings.buyerFeePercent, fixedCents: settings.buyerFeeFixedCents }
    : null;
  const row = await loadPayment(query, dealId);
  if (!row) return { enabled: !!settings, fee, payment: null };
  const moved = await dealMovements(query, dealId);
  const seller = await loadAccount(query, deal.sellerId);
  return {
    enabled: !!settings,
    fee,
    payment: {
      status: row.status,
      currency: row.currency as NonNullable<DealPaymentAnswer['payment']>['currency'],
      booksCents: row.books_cents,
      shippingCents: row.shipping_cents,
      feeCents: row.fee_cents,
      totalCents: row.total_cents,
      dueBy: iso(row.due_by),
      paidAt: iso(row.paid_at),
      releasedCents: moved.transfer,
      refundedCents: moved.refund,
      sellerReady: seller?.transfers_active ?? false,
    },
  };
}
