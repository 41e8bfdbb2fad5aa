import type { SeedStep } from './types';
import { directRoom, insertMessage } from '../../src/server/modules/chats';
import { inTransaction } from '../../src/server/db/tx';
import { ON_HOLIDAY } from './watching';

/** The buyer of the demo bundle, and how many books it holds. */
export const BUNDLE_BUYER = 'chiara_romano';
const BUNDLE_BOOKS = 3;
/** The demo seller's bundle shipping price (their rule, set in My books). */
const BUNDLE_SHIPPING = 6;

/**
 * A demo bundle (issue 22 item 3): a buyer's open offer for three available books of one seller
 * (the one with the most such books, not on holiday, with no conversation with the buyer yet), in their conversation after a
 * card of each book; that seller has set a bundle shipping price. Running it again adds nothing
 * (the buyer's bundle offer, in any state, is found first).
 */
export const seedBundles: SeedStep = async (ctx) => {
  const { database } = ctx;
  const buyerId = ctx.members.find((m) => m.username === BUNDLE_BUYER)?.id;
  if (!buyerId) return;
  const [done] = await database.query('select 1 from offers where buyer_id = $1 and bundle', [
    buyerId,
  ]);
  if (done) return ctx.log('bundles: already there');
  const awayId = ctx.members.find((m) => m.username === ON_HOLIDAY)?.id ?? '';
  const [seller] = await database.query<{ seller_id: string }>(
    `select l.user_id as seller_id from book_listings l
     where l.user_id <> $1 and l.user_id <> $2 and l.status = 'available' and l.hidden_at is null
       and l.listing_type <> 'trade'
       and not exists (select 1 from offer_listings ol join offers o on o.id = ol.offer_id
         where ol.listing_id = l.id and o.buyer_id = $1 and o.status = 'pending')
       -- A conversation of its own: the demo conversations stay as they are.
       and not exists (select 1 from chat_participants p1
         join chat_participants p2 on p2.room_id = p1.room_id
         join chat_rooms r on r.id = p1.room_id and not r.is_group
         where p1.user_id = $1 and p2.user_id = l.user_id)
     group by l.user_id having count(*) >= $3
     order by count(*) desc, l.user_id limit 1`,
    [buyerId, awayId, BUNDLE_BOOKS],
  );
  if (!seller) return ctx.log('bundles: no seller with enough books that ship');
  const books = await database.query<{
    id: string;
    currency: string;
    shipping_cost: number | null;
  }>(
    `select l.id::text, l.currency, l.shipping_cost::float8 as shipping_cost, l.price::float8
     from book_listings l
     where l.user_id = $1 and l.status = 'available' and l.hidden_at is null
       and l.listing_type <> 'trade'
       and not exists (select 1 from offer_listings ol join offers o on o.id = ol.offer_id
         where ol.listing_id = l.id and o.buyer_id = $2 and o.status = 'pending')
     order by l.created_at desc, l.id limit $3`,
    [seller.seller_id, buyerId, BUNDLE_BOOKS],
  );
  const ids = books.map((b) => b.id);
  // By post at the seller's bundle price when every book ships, else handed over.
  const shipping = books.every((b) => b.shipping_cost !== null) ? BUNDLE_SHIPPING : null;
  await inTransaction(database, async (q) => {
    await q(
      `insert into bundle_rules (seller_id, shipping_amount) values ($1, $2)
       on conflict (seller_id) do nothing`,
      [seller.seller_id, BUNDLE_SHIPPING],
    );
    const { roomId } = await directRoom(q, buyerId, seller.seller_id, ids[0]);
    const [offer] = await q<{ id: string }>(
      `insert into offers (listing_id, buyer_id, seller_id, room_id, amount, currency,
         shipping_amount, bundle)
       select $1, $2, $3, $4,
         greatest(1, round(sum(coalesce(price, 0)) * 0.85, 0)), $5, $6, true
       from book_listings where id = any($7::uuid[])
       returning id::text`,
      [ids[0], buyerId, seller.seller_id, roomId, books[0].currency, shipping, ids],
    );
    await q('insert into offer_listings (offer_id, listing_id) select $1, unnest($2::uuid[])', [
      offer.id,
      ids,
    ]);
    for (const id of ids)
      await insertMessage(q, { roomId, senderId: buyerId, type: 'listing', listingId: id });
    await insertMessage(q, {
      roomId,
      senderId: buyerId,
      type: 'offer',
      listingId: ids[0],
      offerId: offer.id,
    });
  });
  ctx.log(`bundles: ${BUNDLE_BUYER} offered for ${ids.length} books of one seller`);
};
