import type { Query } from '../../db/tx';
import { conflict } from '../../platform/errors';

/**
 * A book in an open deal is locked (issue 32): its status, its words and its price change only
 * through the deal's steps (decisions 0072, 0083), never through a listing route. 409.
 */
export const bookInOpenDeal = () => conflict('listings.errors.inOpenDeal');

/**
 * Refuses (409) when any of `listingIds` is a book of an open deal, alone, in a bundle or on
 * either side of a trade. Call it inside the transaction of the change, after taking the
 * listings' rows (`for update` / `for no key update`): accepting an offer and every deal step
 * that changes a book take the same rows, so a race through Promise.all queues on them and the
 * second to come sees the deal the first opened (READ COMMITTED reads it anew per statement).
 */
export async function refuseBooksInOpenDeal(q: Query, listingIds: string[]): Promise<void> {
  if (listingIds.length === 0) return;
  const [locked] = await q(
    `select 1 from offer_listings ol join deals d on d.offer_id = ol.offer_id
     where ol.listing_id = any($1::uuid[]) and d.status = 'open' limit 1`,
    [listingIds],
  );
  if (locked) throw bookInOpenDeal();
}
