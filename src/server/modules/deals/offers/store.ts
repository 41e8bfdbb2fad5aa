import type { ChatMessage } from '@shared/schemas/chats';
import { AppError, badRequest, conflict } from '../../../platform/errors';
import {
  listingNotFound,
  lockReach,
  mayReachListings,
  refuseWhileAway,
} from '../../../platform/reach';
import { inTransaction, sqlState } from '../../../db/tx';
import {
  accessDenied,
  findListingFacts,
  insertMessage,
  isParticipant,
  listingUnavailable,
  type ChatContext,
  type ListingFacts,
} from '../../chats';
import { offerNotices } from './notifications';

/** An offer to store: the room's listing first among its books (a trade adds the proposer's). */
interface NewOffer {
  roomId: string;
  buyerId: string;
  sellerId: string;
  listingId: string;
  currency: string;
  kind: 'sale' | 'trade';
  amount: number | null;
  shippingAmount: number | null;
  listingIds: string[];
}

/**
 * Stores an offer in one transaction (its row, its books, its message in the room), then publishes
 * the message and tells the seller. A second open offer of the member on the listing is a 409 (the
 * partial unique index, even under races), never a 500. Sale and trade offers (./trade-offers.ts).
 */
export async function storeOffer(ctx: ChatContext, offer: NewOffer): Promise<ChatMessage> {
  const { database, log, deps, query, publishMessage, afterCommit } = ctx;
  let messageId: string;
  try {
    messageId = await inTransaction(database, async (q) => {
      // Again on locked rows: a suspension, a hide, a block or a holiday since the first checks.
      await lockReach(q, offer.buyerId, offer.sellerId, [offer.listingId]);
      await refuseWhileAway(q, offer.sellerId, deps.now());
      const [row] = await q<{ id: string }>(
        `insert into offers (listing_id, buyer_id, seller_id, room_id, kind, amount, currency,
           shipping_amount)
         values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
        [
          offer.listingId,
          offer.buyerId,
          offer.sellerId,
          offer.roomId,
          offer.kind,
          offer.amount,
          offer.currency,
          offer.shippingAmount,
        ],
      );
      await q('insert into offer_listings (offer_id, listing_id) select $1, unnest($2::uuid[])', [
        row.id,
        offer.listingIds,
      ]);
      const id = await insertMessage(q, {
        roomId: offer.roomId,
        senderId: offer.buyerId,
        type: 'offer',
        listingId: offer.listingId,
        offerId: row.id,
      });
      if (!id) throw accessDenied();
      return id;
    });
  } catch (err) {
    if (sqlState(err) === '23505') throw conflict('chatApi.errors.offerPending');
    if (err instanceof AppError) throw err;
    log.error({ err, kind: offer.kind }, 'offer not saved');
    throw new AppError(500, 'internal', 'chatApi.errors.sendFailed');
  }
  const message = await publishMessage(offer.roomId, messageId);
  afterCommit(offer.roomId, message);
  if (deps.notifications && message.offer)
    await deps.notifications.notify(await offerNotices(query, [message.offer.id], offer.buyerId));
  return message;
}

/**
 * The room's listing that `userId` may make an offer on (a sale's or a trade's): 403 outside the
 * room, 404 missing or not reachable (hidden, its seller suspended, across a block: as its page
 * answers, platform/reach.ts), 400 their own or of the other kind, 409 not available, 400 when its
 * seller is not in the room. The seller on holiday is refused when the offer is stored (409).
 */
export async function offerableListing(
  ctx: ChatContext,
  userId: string,
  roomId: string,
  listingId: string,
  kind: 'sale' | 'trade',
): Promise<ListingFacts> {
  const { query } = ctx;
  await ctx.requireParticipant(roomId, userId);
  const listing = await findListingFacts(query, listingId);
  if (!listing || !(await mayReachListings(query, userId, [listing.id]))) throw listingNotFound();
  if (listing.seller_id === userId)
    throw badRequest('chatApi.errors.offerOwnListing', {
      listingId: 'chatApi.errors.offerOwnListing',
    });
  const wrong = kind === 'sale' ? 'trade' : 'sell';
  const key = kind === 'sale' ? 'chatApi.errors.notForSale' : 'chatApi.errors.notForTrade';
  if (listing.listing_type === wrong) throw badRequest(key, { listingId: key });
  if (listing.status !== 'available' || listing.hidden) throw listingUnavailable();
  if (!(await isParticipant(query, roomId, listing.seller_id)))
    throw badRequest('chatApi.errors.sellerNotInRoom', {
      listingId: 'chatApi.errors.sellerNotInRoom',
    });
  return listing;
}
