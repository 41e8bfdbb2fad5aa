import type { ChatMessage } from '@shared/schemas/chats';
import { isUuid } from '@shared/schemas/common';
import { AppError, badRequest, conflict, forbidden } from '../../../platform/errors';
import { inTransaction, sqlState } from '../../../db/tx';
import { accessDenied, insertMessage, listingUnavailable, type ChatContext } from '../../chats';
import { offerListingIds } from '../context';
import { offerNotices } from './notifications';

/**
 * Counter-offers (issue 33, item 4; Vinted's habit). The seller answers a buyer's pending sale
 * offer with another amount: a new offer on the same books, room, currency and delivery whose
 * `counter_of` names the buyer's offer, which becomes 'countered'. The counter is an offer like
 * any other (one pending per buyer and book, the accept path, the deal it opens at its amount),
 * except that the seller made it: the buyer accepts or declines it, the seller may withdraw it
 * (./answer.ts answerOffer swaps the roles). A counter is not countered again: the buyer who
 * wants another price declines it and makes a new offer.
 */
export function counterOfferActions(ctx: ChatContext) {
  const { database, deps, log, query, publishMessage, publishUpdated, afterCommit } = ctx;
  return {
    async counterOffer(userId: string, offerId: string, amount: number): Promise<ChatMessage> {
      if (!isUuid(offerId)) throw accessDenied();
      let made: { roomId: string; messageId: string; counterId: string };
      try {
        made = await inTransaction(database, async (q) => {
          const [known] = await q<{ id: string }>('select id from offers where id = $1', [offerId]);
          if (!known) throw accessDenied();
          // The accept path's order: the listings first (in id order), then the offer, so a
          // counter racing an accept queues instead of deadlocking, and the second finds the
          // offer answered.
          const covered = await offerListingIds(q, offerId);
          const listings = await q<{ id: string; available: boolean }>(
            `select id, status = 'available' and hidden_at is null as available
             from book_listings where id = any($1::uuid[]) order by id for no key update`,
            [covered],
          );
          const [offer] = await q<{
            listing_id: string;
            seller_id: string;
            room_id: string;
            status: string;
            kind: string;
            amount: string | null;
            counter: boolean;
            member: boolean;
          }>(
            `select o.listing_id, o.seller_id, o.room_id, o.status, o.kind, o.amount::text,
               o.counter_of is not null as counter,
               exists (select 1 from chat_participants p
                 where p.room_id = o.room_id and p.user_id = $2) as member
             from offers o where o.id = $1 for update`,
            [offerId, userId],
          );
          if (!offer || !offer.member) throw accessDenied();
          if (offer.seller_id !== userId) throw forbidden('chatApi.errors.onlySeller');
          if (offer.kind !== 'sale' || offer.counter)
            throw badRequest('chatApi.errors.counterNotPossible');
          if (offer.status !== 'pending') throw conflict('chatApi.errors.offerNotPending');
          if (listings.length !== covered.length || listings.some((l) => !l.available))
            throw listingUnavailable();
          if (Number(offer.amount) === amount)
            throw badRequest('chatApi.errors.counterSameAmount', {
              amount: 'chatApi.errors.counterSameAmount',
            });
          await q(`update offers set status = 'countered', answered_at = now() where id = $1`, [
            offerId,
          ]);
          const [counter] = await q<{ id: string }>(
            `insert into offers (listing_id, buyer_id, seller_id, room_id, kind, amount, currency,
               shipping_amount, bundle, counter_of)
             select listing_id, buyer_id, seller_id, room_id, 'sale', $2, currency,
               shipping_amount, bundle, id
             from offers where id = $1 returning id`,
            [offerId, amount],
          );
          await q(
            `insert into offer_listings (offer_id, listing_id)
             select $1, listing_id from offer_listings where offer_id = $2`,
            [counter.id, offerId],
          );
          const messageId = await insertMessage(q, {
            roomId: offer.room_id,
            senderId: userId,
            type: 'offer',
            listingId: offer.listing_id,
            offerId: counter.id,
          });
          // A block or a departed member since the offer: nobody may write in the room.
          if (!messageId) throw accessDenied();
          return { roomId: offer.room_id, messageId, counterId: counter.id };
        });
      } catch (err) {
        const state = sqlState(err);
        // A second counter at the same moment (offers_one_counter_idx), or a deadlock broken.
        if (state === '23505') throw conflict('chatApi.errors.offerNotPending');
        if (state === '40P01' || state === '40001') throw conflict('chatApi.errors.offerRace');
        if (err instanceof AppError) throw err;
        log.error({ err }, 'counter-offer not saved');
        throw new AppError(500, 'internal', 'chatApi.errors.sendFailed');
      }
      // The buyer's offer now reads "Countered"; the counter is a new card in the conversation.
      const originals = await query<{ id: string }>(
        'select id from chat_messages where offer_id = $1',
        [offerId],
      );
      for (const m of originals) await publishUpdated(made.roomId, m.id);
      const message = await publishMessage(made.roomId, made.messageId);
      afterCommit(made.roomId, message);
      if (deps.notifications)
        await deps.notifications.notify(await offerNotices(query, [made.counterId], userId));
      return message;
    },
  };
}
