import type { ChatMessage, MakeTradeOfferInput } from '@shared/schemas/chats';
import { isUuid } from '@shared/schemas/common';
import { badRequest, conflict } from '../../../platform/errors';
import type { ChatContext } from '../../chats';
import { offerableListing, storeOffer } from './store';

const FIELD = 'offeredListingIds';

/**
 * Trade offers (decision 0080): in the conversation about a listing of type trade or both, the
 * member who does not own it offers one to three of their own available tradeable listings in
 * exchange, no amount. The offer is answered (accept, decline, withdraw) by the same routes as a
 * sale's (./answer.ts): accepting reserves every book of both sides and opens the deal, by hand
 * (a meeting) or, proposed by post, by post (each member sends their own books, decision 0089).
 */
export function tradeOfferActions(ctx: ChatContext) {
  const { query } = ctx;
  return {
    async makeTradeOffer(
      userId: string,
      roomId: string,
      input: MakeTradeOfferInput,
    ): Promise<ChatMessage> {
      const listing = await offerableListing(ctx, userId, roomId, input.listingId, 'trade');
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
        // By post each member pays their own parcel: nothing in the total (decision 0089).
        shippingAmount: input.delivery === 'post' ? 0 : null,
        listingIds: [listing.id, ...offered],
      });
    },
  };
}

const notYours = () =>
  badRequest('chatApi.errors.tradeBookNotYours', { [FIELD]: 'chatApi.errors.tradeBookNotYours' });
