import { isUuid } from '@shared/schemas/common';
import type { Deal } from '@shared/schemas/deals';
import type { Query } from '../../../db/tx';
import { conflict, forbidden } from '../../../platform/errors';
import type { NotifyInput } from '../../../platform/notifications';
import { dealNotFound, loadDeal, type DealContext } from '../context';
import { readDeal, viewerOf } from '../read';
import type { DealFacts, DealViewer } from '../parts';

export { stepResponses } from '../parts';

export interface StepWork {
  /** Step messages (codes) to post in the conversation, sent by `senderId`. */
  steps?: { senderId: string; code: string }[];
  listings?: string[];
  notices?: NotifyInput[];
}

/**
 * One step of a post deal by `userId`: 404 for a deal that is not theirs (or not by post, or not
 * of `kinds`: a sale's parcel steps are no trade's), 403 for the wrong side (`roles`), 409 once
 * the deal ended; `work` runs with the deal locked. Answers the deal as the member now sees it.
 */
export async function postStep(
  ctx: DealContext,
  dealId: string,
  userId: string,
  roles: DealViewer['role'][],
  work: (q: Query, deal: DealFacts, viewer: DealViewer) => Promise<StepWork>,
  kinds: DealFacts['kind'][] = ['sale'],
): Promise<{ deal: Deal }> {
  const found = isUuid(dealId) ? await loadDeal(ctx.query, dealId) : null;
  if (!found || found.method !== 'post' || !kinds.includes(found.kind)) throw dealNotFound();
  await ctx.change(dealId, async (q, deal) => {
    const viewer = await viewerOf(q, deal, userId, ctx.parts.post);
    if (!viewer) throw dealNotFound();
    if (!roles.includes(viewer.role))
      throw forbidden(
        roles[0] === 'admin' || roles.length > 1
          ? 'errors.forbidden'
          : `deals.post.errors.not_${roles[0]}_step`,
      );
    if (deal.status !== 'open') throw conflict('deals.errors.notOpen');
    const done = await work(q, deal, viewer);
    const messages = [];
    for (const s of done.steps ?? []) messages.push(await ctx.step(q, deal, s.senderId, s.code));
    return { result: null, messages, listings: done.listings, notices: done.notices };
  });
  return { deal: (await readDeal(ctx.query, dealId, userId, ctx.parts, ctx.now()))! };
}
