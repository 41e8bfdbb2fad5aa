import type { Query } from '../../db/tx';
import { AppError } from '../../platform/errors';
import type { DealContext } from './context';
import type { DealFacts } from './parts';

/**
 * Ends the deals `ids` that a timer found due, each in its own locked change: `end` checks again
 * under the lock and ends the deal, answering the listings it changed, or answers null when the
 * deal is no longer due (another process got there first, or a member acted meanwhile). An ended
 * deal gets step `code` in its conversation and its notification to both sides, so several
 * processes running the same timer end each deal once. A lost race (409) is another process's
 * work; anything else is logged under `label` and waits for the next run. Returns the deals ended.
 */
export async function endDueDeals(
  ctx: DealContext,
  ids: readonly string[],
  code: string,
  label: string,
  end: (q: Query, deal: DealFacts) => Promise<string[] | null>,
): Promise<string[]> {
  const done: string[] = [];
  for (const id of ids) {
    try {
      const ended = await ctx.change(id, async (q, deal) => {
        const listings = deal.status === 'open' ? await end(q, deal) : null;
        if (!listings) return { result: false, messages: [] };
        const message = await ctx.step(q, deal, deal.buyerId, code);
        return {
          result: true,
          messages: [message],
          listings,
          notices: ctx.notice(deal, code, null),
        };
      });
      if (ended) done.push(id);
    } catch (err) {
      if (!(err instanceof AppError && err.statusCode === 409))
        ctx.log.warn({ err, dealId: id }, `${label}: deal not ended`);
    }
  }
  return done;
}
