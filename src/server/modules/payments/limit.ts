import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../platform/module';
import { scheduleJob } from '../../platform/jobs';
import { cancelDeal, endDueDeals, type DealContext } from '../deals';

/** How often each process looks for deals whose time to pay ran out (and once at start). */
export const PAYMENT_LIMIT_JOB_MS = 60_000;
const BATCH = 100;

/**
 * Cancels the open deals whose buyer did not pay within the time limit, their books on sale again
 * (the deal core's cancel, a step message and a notification to both sides). Only deals the
 * buyer could pay count: a seller who has not set up payments holds the clock, which starts again
 * when they have. Each deal is cancelled in its own locked transaction that checks the limit
 * again, so several processes cancel it once; a payment racing the cancel is refunded when its
 * event arrives. Returns the deals this run cancelled.
 */
export async function cancelUnpaidDeals(ctx: DealContext, now: Date): Promise<string[]> {
  const due = await ctx.query<{ id: string }>(
    `select p.deal_id::text as id from deal_payments p
     join deals d on d.id = p.deal_id
     join payment_accounts a on a.user_id = d.seller_id and a.transfers_active
     where p.status = 'due' and p.due_by is not null and p.due_by <= $1 and d.status = 'open'
     order by p.due_by limit ${BATCH}`,
    [now],
  );
  return endDueDeals(
    ctx,
    due.map((d) => d.id),
    'payment.expired',
    'payment limit',
    async (q, deal) => {
      const [row] = await q<{ late: boolean }>(
        `select status = 'due' and due_by is not null and due_by <= $2 as late
         from deal_payments where deal_id = $1 for update`,
        [deal.id, now],
      );
      return row?.late ? cancelDeal(q, deal) : null;
    },
  );
}

export function schedulePaymentLimitJob(app: FastifyInstance, ctx: DealContext, deps: AppDeps) {
  if (!deps.config.payments) return;
  scheduleJob(
    app,
    { backgroundJobs: deps.backgroundJobs ?? true, config: deps.config, now: ctx.now },
    {
      name: 'payment limit',
      everyMs: PAYMENT_LIMIT_JOB_MS,
      run: (at) => cancelUnpaidDeals(ctx, at),
    },
  );
}
