import type { ChatMessage, MakeTradeOfferInput } from '@shared/schemas/chats';
import { badRequest, conflict } from '../../platform/errors';
import { isBlockedBetween } from '../../platform/moderation';
import { listingNotFound } from '../listings/service';
import { listingUnavailable, type ChatContext } from './context';
import { storeOffer } from './offers';
import { findListingFacts, isParticipant, isUuid } from './queries';

const FIELD = 'offeredListingIds';

/**
 * Trade offers (decision 0080): in the conversation about a listing of type trade or both, the
 * member who does not own it offers one to three of their own available tradeable listings in
 * exchange, no amount. The offer is answered (accept, decline, withdraw) by the same routes as a
 * sale's (./offers.ts): accepting reserves every book of both sides and opens a hand deal.
 */
export function tradeOfferActions(ctx: ChatContext) {
  const { query, requireParticipant } = ctx;
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
      return storeOffer(ctx, {
        roomId,
        buyerId: userId,
        sellerId: listing.seller_id,
        listingId: listing.id,
        currency: listing.currency,
        kind: 'trade',
        amount: null,
        shippingAmount: null,
        listingIds: [listing.id, ...offered],
      });
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
