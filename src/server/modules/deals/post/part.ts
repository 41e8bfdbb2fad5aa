import type { DealPost } from '@shared/schemas/dealPost';
import type { DealPart } from '../parts';
import { hasCase, loadParcel, readPostState } from './state';
import { tradeCancelRefusal } from '../trade-post/state';

/**
 * Sale by post (issue 22 item 1, decision 0074): the buyer gives an address (shown to the seller
 * of this deal only, while it is open), the seller ships with a carrier and tracking, the buyer
 * confirms receipt or reports a problem within the window, and the deal completes by itself when
 * the window closes. A problem opens a case that both sides and the admins see. A trade by post
 * (decision 0090, ../trade-post) is a deal of this method too: two parcels, one each way.
 */
export const postPart: DealPart<DealPost> = {
  method: 'post',
  state: readPostState,
  async cancelRefusal(q, deal) {
    if (deal.kind === 'trade') return tradeCancelRefusal(q, deal);
    // Once the parcel left, only a problem's case (an admin's outcome) can cancel.
    const parcel = await loadParcel(q, deal.id);
    return parcel?.shipped_at ? 'deals.post.errors.shippedNoCancel' : null;
  },
  adminMayRead: hasCase,
};
