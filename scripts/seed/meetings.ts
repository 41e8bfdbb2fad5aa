import { inTransaction, type Query } from '../../src/server/db/tx';
import { openDeal } from '../../src/server/modules/deals';
import { insertMessage, directRoom } from '../../src/server/modules/chats';
import type { SeedContext, SeedStep } from './types';

/** The demo's hand-to-hand deal: Emily bought a book of Marco's and proposed where to meet. */
const BUYER = 'emily_reads';
const SELLER = 'marco_rossi';
export const MEETING_PLACE = 'Piazza Maggiore, Bologna';

/**
 * The ids of the two demo members of a seeded deal, or null when either is missing or `seeded`
 * (SQL, their ids $1 and $2) finds their deal there already, which `already` then logs.
 */
export async function demoPair(
  ctx: SeedContext,
  usernames: [string, string],
  seeded: string,
  already: string,
): Promise<[string, string] | null> {
  const byUsername = new Map(ctx.members.map((m) => [m.username, m.id]));
  const [first, second] = usernames.map((u) => byUsername.get(u));
  if (!first || !second) return null;
  if ((await ctx.database.query(seeded, [first, second])).length) {
    ctx.log(already);
    return null;
  }
  return [first, second];
}

/**
 * A meeting proposed (issue 22 item 2, decision 0075): the buyer contacts the seller about one of
 * their books without shipping, offers, the seller accepts (the deal opens, the book reserved) and
 * the buyer proposes a place and a time three days after the seed. Each step is in the
 * conversation as the app writes it. Running it again adds nothing (one such deal between them).
 */
export const seedMeetings: SeedStep = async (ctx) => {
  const pair = await demoPair(
    ctx,
    [BUYER, SELLER],
    `select 1 from deal_meetings m join deals d on d.id = m.deal_id
     where d.buyer_id = $1 and d.seller_id = $2 limit 1`,
    'meetings: the demo meeting is already there',
  );
  if (!pair) return;
  const [buyerId, sellerId] = pair;
  const proposed = await inTransaction(ctx.database, async (q) => {
    const [listing] = await q<{ id: string; price: string; currency: string }>(
      `select id, price, currency from book_listings
       where user_id = $1 and status = 'available' and listing_type = 'sell'
         and shipping_cost is null and price is not null and hidden_at is null
       order by created_at desc, id limit 1 for update`,
      [sellerId],
    );
    if (!listing) return false;
    const { roomId } = await directRoom(q, buyerId, sellerId, listing.id);
    await insertMessage(q, { roomId, senderId: buyerId, type: 'listing', listingId: listing.id });
    await insertMessage(q, {
      roomId,
      senderId: buyerId,
      content: 'Ciao! Sono a Bologna anch’io: possiamo vederci in centro?',
    });
    const amount = Math.max(1, Math.round(Number(listing.price) * 0.9));
    const [offer] = await q<{ id: string }>(
      `insert into offers (listing_id, buyer_id, seller_id, room_id, amount, currency, status,
         answered_at)
       values ($1, $2, $3, $4, $5, $6, 'accepted', now()) returning id::text`,
      [listing.id, buyerId, sellerId, roomId, amount, listing.currency],
    );
    await q('insert into offer_listings (offer_id, listing_id) values ($1, $2)', [
      offer.id,
      listing.id,
    ]);
    await acceptedWithMeeting(q, {
      roomId,
      offerId: offer.id,
      listingIds: [listing.id],
      proposerId: buyerId,
      answererId: sellerId,
      place: MEETING_PLACE,
      note: 'Sotto il Nettuno, con una sciarpa rossa',
      inDays: 3,
      hour: 17,
    });
    return true;
  });
  ctx.log(
    proposed
      ? `meetings: ${BUYER} proposed a meeting to ${SELLER}`
      : `meetings: no book of ${SELLER} to hand over`,
  );
};

/**
 * The steps after an offer is stored as accepted, as the app writes them: the offer's message by
 * the proposer, its books reserved, the deal opened (announced by the one who accepted), and a
 * meeting proposed by the proposer `inDays` after the seed at `hour` UTC.
 */
export async function acceptedWithMeeting(
  q: Query,
  m: {
    roomId: string;
    offerId: string;
    listingIds: string[];
    proposerId: string;
    answererId: string;
    place: string;
    note: string;
    inDays: number;
    hour: number;
  },
) {
  await insertMessage(q, {
    roomId: m.roomId,
    senderId: m.proposerId,
    type: 'offer',
    listingId: m.listingIds[0],
    offerId: m.offerId,
  });
  await q(
    `update book_listings set status = 'reserved', updated_at = now() where id = any($1::uuid[])`,
    [m.listingIds],
  );
  const dealId = await openDeal(q, m.offerId);
  await insertMessage(q, {
    roomId: m.roomId,
    senderId: m.answererId,
    type: 'deal',
    content: 'deal.opened',
    dealId,
  });
  const at = new Date(Date.now() + m.inDays * 24 * 60 * 60 * 1000);
  at.setUTCHours(m.hour, 0, 0, 0);
  await q(
    `insert into deal_meetings (deal_id, proposed_by, place, note, meet_at)
     values ($1, $2, $3, $4, $5)`,
    [dealId, m.proposerId, m.place, m.note, at],
  );
  await insertMessage(q, {
    roomId: m.roomId,
    senderId: m.proposerId,
    type: 'deal',
    content: 'meeting.proposed',
    dealId,
  });
}
