import { inTransaction } from '../../src/server/db/tx';
import { insertMessage, directRoom } from '../../src/server/modules/chats';
import type { SeedStep } from './types';
import { acceptedWithMeeting, demoPair } from './meetings';

/** The demo's trade: Sofia offered one of her books for one of Davide's, and proposed a meeting. */
const PROPOSER = 'sofia_ricci';
const OWNER = 'davidegreco';
export const TRADE_MEETING_PLACE = 'Libreria Coop Ambasciatori, Bologna';

/**
 * A trade deal with a meeting proposed (issue 22 item 2, decision 0080): the proposer contacts
 * the owner about a book listed for trade, offers one of her own tradeable books, the owner
 * accepts (both books reserved, a hand deal open) and the proposer suggests where and when to
 * meet. Each step is in the conversation as the app writes it. Running it again adds nothing
 * (one trade deal between them).
 */
export const seedTrades: SeedStep = async (ctx) => {
  const pair = await demoPair(
    ctx,
    [PROPOSER, OWNER],
    `select 1 from deals d join offers o on o.id = d.offer_id
     where o.kind = 'trade' and d.buyer_id = $1 and d.seller_id = $2 limit 1`,
    'trades: the demo trade is already there',
  );
  if (!pair) return;
  const [proposerId, ownerId] = pair;
  // Never a book another demo member wishes: its alert in their bell stays about a book on offer.
  const tradeable = `select id::text, currency from book_listings l
     where user_id = $1 and status = 'available' and listing_type in ('trade', 'both')
       and hidden_at is null
       and not exists (select 1 from wishlist_items w where w.book_id = l.book_id)
     order by created_at desc, id limit 1 for update`;
  const proposed = await inTransaction(ctx.database, async (q) => {
    const [wanted] = await q<{ id: string; currency: string }>(tradeable, [ownerId]);
    const [given] = await q<{ id: string }>(tradeable, [proposerId]);
    if (!wanted || !given) return false;
    const { roomId } = await directRoom(q, proposerId, ownerId, wanted.id);
    await insertMessage(q, {
      roomId,
      senderId: proposerId,
      type: 'listing',
      listingId: wanted.id,
    });
    await insertMessage(q, {
      roomId,
      senderId: proposerId,
      content: 'Ciao! Ti andrebbe uno scambio con uno dei miei libri?',
    });
    const [offer] = await q<{ id: string }>(
      `insert into offers (listing_id, buyer_id, seller_id, room_id, kind, amount, currency,
         status, answered_at)
       values ($1, $2, $3, $4, 'trade', null, $5, 'accepted', now()) returning id::text`,
      [wanted.id, proposerId, ownerId, roomId, wanted.currency],
    );
    await q(`insert into offer_listings (offer_id, listing_id) values ($1, $2), ($1, $3)`, [
      offer.id,
      wanted.id,
      given.id,
    ]);
    await acceptedWithMeeting(q, {
      roomId,
      offerId: offer.id,
      listingIds: [wanted.id, given.id],
      proposerId,
      answererId: ownerId,
      place: TRADE_MEETING_PLACE,
      note: 'Porto il libro in una busta verde',
      inDays: 4,
      hour: 16,
    });
    return true;
  });
  ctx.log(
    proposed
      ? `trades: ${PROPOSER} proposed a trade and a meeting to ${OWNER}`
      : `trades: no tradeable books of ${PROPOSER} and ${OWNER}`,
  );
};
