import { z } from 'zod';

/**
 * Sale by post (issue 22 item 1): the part of a deal that a parcel adds — the buyer's address
 * (shown to the seller of this deal only, while it is open), the carrier and tracking number, the
 * windows to confirm receipt or report a problem, and a problem's case. Owned by
 * modules/deals/post; the core (./deals.ts) carries it as `deal.post`.
 */
export const dealPostSchema = z.object({});
export type DealPost = z.infer<typeof dealPostSchema>;
