/**
 * A parcel in transit for `npm run seed:demo` (sale by post, decision 0074): Emily bought one of
 * Giulia's books by post; Giulia has the address and shipped it with Poste Italiane two days ago,
 * so the buyer's window is open. Idempotent: the demo tracking number marks it.
 */
import type { SeedContext, SeedStep } from './types';
import { inTransaction } from '../../src/server/db/tx';
import { directKey } from '../../src/server/modules/chats';
import { postWindowEnd } from '../../src/shared/schemas/dealPost';

export const DEMO_TRACKING = 'RR204815162IT';
const HOUR = 60 * 60 * 1000;

export const seedParcelInTransit: SeedStep = async (ctx: SeedContext) => {
  const ids = new Map(ctx.members.map((m) => [m.username, m.id]));
  const seller = ids.get('giulia_legge');
  const buyer = ids.get('emily_reads');
  if (!seller || !buyer) return;
  const [done] = await ctx.database.query('select 1 from deal_posts where tracking = $1', [
    DEMO_TRACKING,
  ]);
  if (done) return ctx.log('parcel in transit: already there');
  // One of the seller's available books that no offer mentions.
  const [listing] = await ctx.database.query<{ id: string; price: number; currency: string }>(
    `select l.id, l.price::float8 as price, l.currency from book_listings l
     where l.user_id = $1 and l.status = 'available' and l.price is not null
       and not exists (select 1 from offer_listings ol where ol.listing_id = l.id)
     order by l.created_at, l.id limit 1`,
    [seller],
  );
  if (!listing) return ctx.log('parcel in transit: no listing to use');
  const now = Date.now();
  const at = (hoursAgo: number) => new Date(now - hoursAgo * HOUR);
  const shippedAt = at(48);
  await inTransaction(ctx.database, async (q) => {
    await q(
      `update book_listings set status = 'reserved', shipping_cost = coalesce(shipping_cost, 4.90)
       where id = $1`,
      [listing.id],
    );
    const [{ shipping }] = await q<{ shipping: number }>(
      'select shipping_cost::float8 as shipping from book_listings where id = $1',
      [listing.id],
    );
    // Their direct conversation (one per pair), about this listing.
    const key = directKey(buyer, seller);
    await q(
      `insert into chat_rooms (is_group, created_by, direct_key, listing_id, created_at, updated_at)
       values (false, $1, $2, $3, $4, $5) on conflict (direct_key) do nothing`,
      [buyer, key, listing.id, at(96), at(48)],
    );
    const [room] = await q<{ id: string }>('select id from chat_rooms where direct_key = $1', [
      key,
    ]);
    for (const user of [buyer, seller])
      await q(
        `insert into chat_participants (room_id, user_id, joined_at, last_read_at)
         values ($1, $2, $3, $4) on conflict do nothing`,
        [room.id, user, at(96), at(48)],
      );
    const amount = Math.max(1, Math.round(listing.price * 0.9));
    const [offer] = await q<{ id: string }>(
      `insert into offers (listing_id, buyer_id, seller_id, room_id, amount, currency,
         shipping_amount, status, created_at, answered_at)
       values ($1, $2, $3, $4, $5, $6, $7, 'accepted', $8, $9) returning id`,
      [listing.id, buyer, seller, room.id, amount, listing.currency, shipping, at(95), at(94)],
    );
    await q('insert into offer_listings (offer_id, listing_id) values ($1, $2)', [
      offer.id,
      listing.id,
    ]);
    const [deal] = await q<{ id: string }>(
      `insert into deals (offer_id, room_id, buyer_id, seller_id, method, created_at)
       values ($1, $2, $3, $4, 'post', $5) returning id`,
      [offer.id, room.id, buyer, seller, at(94)],
    );
    const address = {
      name: 'Emily Carter',
      street: 'Via dei Serpenti 12',
      postalCode: '00184',
      city: 'Roma',
      region: 'RM',
      country: 'IT',
      phone: '',
    };
    await q(
      `insert into deal_posts (deal_id, address, address_given_at, carrier, tracking, shipped_at,
         window_ends_at)
       values ($1, $2, $3, 'poste_italiane', $4, $5, $6)`,
      [
        deal.id,
        JSON.stringify(address),
        at(90),
        DEMO_TRACKING,
        shippedAt,
        postWindowEnd(shippedAt, null),
      ],
    );
    const lines: [string, string, string, Date, string | null, string | null][] = [
      [buyer, 'listing', '', at(96), null, null],
      [buyer, 'text', 'Hi Giulia! Could you post it to Rome?', at(95.5), null, null],
      [buyer, 'offer', '', at(95), offer.id, null],
      [seller, 'deal', 'deal.opened', at(94), null, deal.id],
      [buyer, 'deal', 'post.address_given', at(90), null, deal.id],
      [seller, 'deal', 'post.shipped', shippedAt, null, deal.id],
    ];
    for (const [sender, type, content, createdAt, offerId, dealId] of lines)
      await q(
        `insert into chat_messages (room_id, sender_id, type, content, listing_id, offer_id,
           deal_id, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          room.id,
          sender,
          type,
          content,
          type === 'listing' ? listing.id : null,
          offerId,
          dealId,
          createdAt,
        ],
      );
  });
  ctx.log('parcel in transit: 1 created');
};
