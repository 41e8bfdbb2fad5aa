import type { ChatMessage, MakeTradeOfferInput } from '@shared/schemas/chats';
import { AppError, badRequest, conflict } from '../../platform/errors';
import { isBlockedBetween } from '../../platform/moderation';
import { inTransaction, sqlState } from '../../db/tx';
import { listingNotFound } from '../listings/service';
import { accessDenied, listingUnavailable, type ChatContext } from './context';
import { insertMessage } from './messages';
import { offerNotices } from './notifications';
import { findListingFacts, isParticipant, isUuid } from './queries';

const FIELD = 'offeredListingIds';

/**
 * Trade offers (decision 0080): in the conversation about a listing of type trade or both, the
 * member who does not own it offers one to three of their own available tradeable listings in
 * exchange, no amount. The offer is answered (accept, decline, withdraw) by the same routes as a
 * sale's (./offers.ts): accepting reserves every book of both sides and opens a hand deal.
 */
export function tradeOfferActions(ctx: ChatContext) {
  const { deps, database, log, query, publishMessage, afterCommit, requireParticipant } = ctx;
  return {
    async makeTradeOffer(
      userId: string,
      roomId: string,
      input: MakeTradeOfferInput,
    ): Promise<ChatMessage> {
      await requireParticipant(roomId, userId);
      const listing = await findListingFacts(query, input.listingId);
      if (!listing || (await isBlockedBetween(query, userId, listing.seller_id)))
        throw listingNotFound();
      if (listing.seller_id === userId)
        throw badRequest('chatApi.errors.offerOwnListing', {
          listingId: 'chatApi.errors.offerOwnListing',
        });
      if (listing.listing_type === 'sell')
        throw badRequest('chatApi.errors.notForTrade', { listingId: 'chatApi.errors.notForTrade' });
      if (listing.status !== 'available' || (await isHidden(listing.id)))
        throw listingUnavailable();
      if (!(await isParticipant(query, roomId, listing.seller_id)))
        throw badRequest('chatApi.errors.sellerNotInRoom', {
          listingId: 'chatApi.errors.sellerNotInRoom',
        });
      const offered = input.offeredListingIds;
      // Not a listing of this member (or no listing at all): one answer, which says nothing of
      // other members' listings.
      if (!offered.every(isUuid)) throw notYours();
      const books = await query<{
        id: string;
        user_id: string;
        listing_type: string;
        status: string;
        hidden: boolean;
      }>(
        `select id::text, user_id, listing_type, status, hidden_at is not null as hidden
         from book_listings where id = any($1::uuid[])`,
        [offered],
      );
      if (books.length !== offered.length || books.some((b) => b.user_id !== userId))
        throw notYours();
      if (books.some((b) => b.listing_type === 'sell'))
        throw badRequest('chatApi.errors.tradeBookNotTradeable', {
          [FIELD]: 'chatApi.errors.tradeBookNotTradeable',
        });
      if (books.some((b) => b.status !== 'available' || b.hidden))
        throw conflict('chatApi.errors.tradeBookUnavailable', {
          [FIELD]: 'chatApi.errors.tradeBookUnavailable',
        });
      let messageId: string;
      try {
        messageId = await inTransaction(database, async (q) => {
          const [offer] = await q<{ id: string }>(
            `insert into offers (listing_id, buyer_id, seller_id, room_id, kind, amount, currency)
             values ($1, $2, $3, $4, 'trade', null, $5) returning id`,
            [listing.id, userId, listing.seller_id, roomId, listing.currency],
          );
          await q(
            `insert into offer_listings (offer_id, listing_id)
             select $1, unnest($2::uuid[])`,
            [offer.id, [listing.id, ...offered]],
          );
          const id = await insertMessage(q, {
            roomId,
            senderId: userId,
            type: 'offer',
            listingId: listing.id,
            offerId: offer.id,
          });
          if (!id) throw accessDenied();
          return id;
        });
      } catch (err) {
        // One open offer per member and listing, whatever its kind (the partial unique index).
        if (sqlState(err) === '23505') throw conflict('chatApi.errors.offerPending');
        if (err instanceof AppError) throw err;
        log.error({ err }, 'trade offer not saved');
        throw new AppError(500, 'internal', 'chatApi.errors.sendFailed');
      }
      const message = await publishMessage(roomId, messageId);
      afterCommit(roomId, message);
      if (deps.notifications && message.offer)
        await deps.notifications.notify(await offerNotices(query, [message.offer.id], userId));
      return message;
    },
  };

  async function isHidden(listingId: string) {
    const [row] = await query<{ hidden: boolean }>(
      'select hidden_at is not null as hidden from book_listings where id = $1',
      [listingId],
    );
    return row?.hidden ?? true;
  }
}

const notYours = () =>
  badRequest('chatApi.errors.tradeBookNotYours', { [FIELD]: 'chatApi.errors.tradeBookNotYours' });
