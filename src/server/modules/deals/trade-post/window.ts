import type { FastifyInstance } from 'fastify';
import { TRADE_POST_WINDOW_DAYS } from '@shared/schemas/dealTradePost';
import type { AppDeps } from '../../../platform/module';
import { scheduleJob } from '../../../platform/jobs';
import { completeDeal, type DealContext } from '../context';
import { endDueDeals } from '../due';
import { POST_WINDOW_JOB_MS } from '../post/window';
import { loadParcels, windowEnd } from './state';
import { loadCase } from '../post/state';

const BATCH = 100;

/**
 * Completes the open trades by post whose two parcels left and whose window closed at `now`
 * (TRADE_POST_WINDOW_DAYS after the later parcel) with no problem reported. Each in its own locked
 * transaction that checks again, so several processes complete each trade once.
 */
export async function completeTradeWindows(ctx: DealContext, now: Date): Promise<string[]> {
  const due = await ctx.query<{ id: string }>(
    `select p.deal_id::text as id from deal_trade_parcels p join deals d on d.id = p.deal_id
     where p.shipped_at is not null and d.status = 'open'
       and not exists (select 1 from deal_cases c where c.deal_id = p.deal_id)
     group by p.deal_id
     having count(*) = 2 and max(p.shipped_at) <= $1::timestamptz - make_interval(days => $2)
     order by max(p.shipped_at) limit ${BATCH}`,
    [now, TRADE_POST_WINDOW_DAYS],
  );
  return endDueDeals(
    ctx,
    due.map((d) => d.id),
    'post.window_closed',
    'trade by post window',
    async (q, deal) => {
      const parcels = await loadParcels(q, deal.id, true);
      const end = windowEnd(deal, parcels, (await loadCase(q, deal.id)) !== null);
      return end && end <= now ? completeDeal(q, deal) : null;
    },
  );
}

export function scheduleTradeWindowJob(app: FastifyInstance, ctx: DealContext, deps: AppDeps) {
  scheduleJob(
    app,
    { backgroundJobs: deps.backgroundJobs ?? true, config: deps.config, now: ctx.now },
    {
      name: 'trade by post window',
      everyMs: POST_WINDOW_JOB_MS,
      run: (at) => completeTradeWindows(ctx, at),
    },
  );
}
