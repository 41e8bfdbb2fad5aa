import type { FastifyInstance } from 'fastify';
import type { ModuleDeps } from '../../platform/module';
import { conflict } from '../../platform/errors';
import { moduleDealContext } from '../deals';
import { schedulePaymentLimitJob } from './limit';
import { openDealPayment, paymentDue, type PaymentsContext } from './queries';
import { claimCaseRefund, settle } from './settle';

/**
 * Payments follow the deals through what changed (platform/changes.ts), so that the deals module
 * imports nothing of payments: a deal that opens owes its payment (in the accepting transaction),
 * its parcel leaves once paid, and its end releases or refunds the money. A deal by post not paid
 * in time is cancelled (./limit.ts), on the deals' own context.
 */
export function followDeals(app: FastifyInstance, deps: ModuleDeps, ctx: PaymentsContext) {
  const { changes, config } = deps;
  changes.on('deal.opened', ({ q, dealId }) => openDealPayment(q, dealId, deps));
  changes.on('deal.shipping', async ({ q, dealId }) => {
    if (config.payments && (await paymentDue(q, dealId))) throw conflict('payments.errors.unpaid');
  });
  changes.on('deal.ended', ({ dealId }) => settle(ctx, dealId));
  changes.on('deal.caseRefund', ({ q, dealId, cents }) => claimCaseRefund(ctx, q, dealId, cents));
  if (config.payments) schedulePaymentLimitJob(app, moduleDealContext(app, deps), deps);
}
