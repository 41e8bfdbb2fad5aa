import type { ChatMessage } from '@shared/schemas/chats';
import { badRequest } from '../../platform/errors';
import { listingNotFound, lockReach, mayReachListings } from '../../platform/reach';
import { inTransaction } from '../../db/tx';
import { claimHolidayReply } from '../profiles';
import { listingUnavailable, type ChatContext } from './context';
import { insertMessage } from './insert';
import { findListingFacts } from './queries';
import { directRoom } from './rooms';

/**
 * Contacting a seller about a listing: the one direct conversation with them, the listing's card
 * and the first message in it (offers on it: modules/deals/offers).
 */
export function contactActions(ctx: ChatContext) {
  const { deps, database, query, publish, orFail } = ctx;
  const { publishMessage, afterCommit } = ctx;
  return {
    async contact(
      userId: string,
      listingId: string,
      content: string,
    ): Promise<{ roomId: string; message: ChatMessage }> {
      const listing = await findListingFacts(query, listingId);
      // Hidden, its seller suspended, a block between the two: as absent as a missing one.
      if (!listing || !(await mayReachListings(query, userId, [listing.id])))
        throw listingNotFound();
      if (listing.seller_id === userId)
        throw badRequest('chatApi.errors.ownListing', { listingId: 'chatApi.errors.ownListing' });
      if (listing.status !== 'available') throw listingUnavailable();
      const sellerId = listing.seller_id;
      const result = await orFail('chatApi.errors.startFailed', () =>
        inTransaction(database, async (q) => {
          // Again on locked rows: a suspension, a hide or a block since the first check.
          await lockReach(q, userId, sellerId, [listing.id]);
          const { roomId, changed } = await directRoom(q, userId, sellerId, listing.id);
          const cardId = await insertMessage(q, {
            roomId,
            senderId: userId,
            type: 'listing',
            listingId: listing.id,
          });
          const textId = await insertMessage(q, { roomId, senderId: userId, content });
          // A seller on holiday answers once per conversation and holiday (profiles/holiday.ts).
          const away = await claimHolidayReply(q, roomId, sellerId, deps.now());
          const replyId = away
            ? await insertMessage(q, { roomId, senderId: sellerId, type: 'system', content: away })
            : null;
          return { roomId, changed, cardId: cardId!, textId: textId!, replyId };
        }),
      );
      const { roomId } = result;
      if (result.changed) await publish([userId, sellerId], { type: 'chat.room', roomId });
      await publishMessage(roomId, result.cardId);
      const message = await publishMessage(roomId, result.textId);
      afterCommit(roomId, message);
      if (result.replyId) await publishMessage(roomId, result.replyId);
      return { roomId, message };
    },
  };
}
