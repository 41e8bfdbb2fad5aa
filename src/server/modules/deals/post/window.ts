import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../platform/module';
import { scheduleJob } from '../../../platform/jobs';
import type { DealContext } from '../context';
import { endDueDeals } from '../due';
import { completePostDeal } from './state';

/** How often each process looks for windows that closed (and once at start). */
export const POST_WINDOW_JOB_MS = 60_000;
/** At most this many deals per run; the next run takes the rest. */
const BATCH = 100;

/**
 * Completes the open deals by post whose buyer's window closed at `now` with no answer (no
 * confirmation, no problem). Each deal completes in its own locked transaction that checks the
 * window again: when several processes run the job at once, each deal completes once, with one
 * step message and one notification. Returns the deals this run completed.
 */
export async function completeClosedWindows(ctx: DealContext, now: Date): Promise<string[]> {
  const due = await ctx.query<{ id: string }>(
    `select p.deal_id::text as id from deal_posts p join deals d on d.id = p.deal_id
     where p.window_ends_at is not null and p.window_ends_at <= $1 and d.status = 'open'
     order by p.window_ends_at limit ${BATCH}`,
    [now],
  );
  return endDueDeals(
    ctx,
    due.map((d) => d.id),
    'post.window_closed',
    'post window',
    async (q, deal) => {
      const [row] = await q<{ due: boolean }>(
        `select window_ends_at is not null and window_ends_at <= $2 as due
         from deal_posts where deal_id = $1 for update`,
        [deal.id, now],
      );
      // The buyer may have answered meanwhile.
      return row?.due ? completePostDeal(q, deal) : null;
    },
  );
}

export function scheduleWindowJob(app: FastifyInstance, ctx: DealContext, deps: AppDeps) {
  scheduleJob(
    app,
    {
      backgroundJobs: deps.backgroundJobs ?? true,
      config: deps.config,
      now: ctx.now,
    },
    {
      name: 'post window',
      everyMs: POST_WINDOW_JOB_MS,
      run: (at) => completeClosedWindows(ctx, at),
    },
  );
}
