import type { ChatMessage } from '@shared/schemas/chats';
import { isUuid } from '@shared/schemas/common';
import { badRequest, conflict, forbidden } from '../../../platform/errors';
import { inTransaction, sqlState, type Query } from '../../../db/tx';
import { refuseBooksInOpenDeal } from '../../listings';
import {
  accessDenied,
  findMessage,
  insertMessage,
  listingUnavailable,
  type ChatContext,
} from '../../chats';
import { offerListingIds, openDeal } from '../context';
import { offerNotices } from './notifications';
import { offerableListing, storeOffer } from './store';

export type OfferAction = 'accept' | 'decline' | 'withdraw';

/** Why a member may not: the buyer withdraws an offer the seller answers; a counter the reverse. */
function roleError(counter: boolean, action: OfferAction): string {
  if (counter)
    return action === 'withdraw'
      ? 'chatApi.errors.counterOnlySeller'
      : 'chatApi.errors.counterOnlyBuyer';
  return action === 'withdraw' ? 'chatApi.errors.onlyBuyer' : 'chatApi.errors.onlySeller';
}

/**
 * Offers in a conversation (deal machinery: an accepted offer opens its deal): a sale offer on the
 * room's listing, and the answers to any offer (accept, decline, withdraw).
 */
export function offerActions(ctx: ChatContext) {
  const { deps, database, query, publishMessage, publishUpdated } = ctx;
  return {
    async makeOffer(
      userId: string,
      roomId: string,
      input: { listingId: string; amount: number; delivery?: 'post' | 'hand' },
    ): Promise<ChatMessage> {
      const listing = await offerableListing(ctx, userId, roomId, input.listingId, 'sale');
      // By post when the listing ships (its shipping cost joins the total), unless the buyer
      // asks to collect it; a listing without a shipping cost is handed over only.
      const ships = listing.shipping_cost !== null;
      const delivery = input.delivery ?? (ships ? 'post' : 'hand');
      if (delivery === 'post' && !ships)
        throw badRequest('deals.errors.noShipping', { delivery: 'deals.errors.noShipping' });
      const shippingAmount = delivery === 'post' ? Number(listing.shipping_cost) : null;
      return storeOffer(ctx, {
        roomId,
        buyerId: userId,
        sellerId: listing.seller_id,
        listingId: listing.id,
        currency: listing.currency,
        kind: 'sale',
        amount: input.amount,
        shippingAmount,
        listingIds: [listing.id],
      });
    },

    async answerOffer(userId: string, offerId: string, action: OfferAction): Promise<ChatMessage> {
      if (!isUuid(offerId)) throw accessDenied();
      // Watchers hear of a reservation or a sale (platform/listing-changes.ts): every listing
      // of the offer (one, or a bundle's), read before the change.
      const listings = action === 'accept' ? await offerListingIds(query, offerId) : [];
      const tracked = deps.listingChanges
        ? await Promise.all(listings.map((l) => deps.listingChanges!.track(l)))
        : [];
      let dealStep: { dealId: string; messageId: string | null } | null = null;
      const changedOffers = await answerInTransaction(async (q) => {
        // Every path that changes a listing and its offers locks the listing rows first (in id
        // order), then the offers: two accepts on one listing queue on the listing instead of
        // deadlocking, and the second finds the listing reserved.
        const [row] = await q<{ id: string }>('select id from offers where id = $1', [offerId]);
        if (!row) throw accessDenied();
        const covered = await offerListingIds(q, offerId);
        await q(
          'select id from book_listings where id = any($1::uuid[]) order by id for no key update',
          [covered],
        );
        const [offer] = await q<{
          id: string;
          listing_id: string;
          buyer_id: string;
          seller_id: string;
          room_id: string;
          status: string;
          member: boolean;
          counter: boolean;
        }>(
          `select o.id, o.listing_id, o.buyer_id, o.seller_id, o.room_id, o.status,
             o.counter_of is not null as counter,
             exists (select 1 from chat_participants p
               where p.room_id = o.room_id and p.user_id = $2) as member
           from offers o where o.id = $1 for update`,
          [offerId, userId],
        );
        if (!offer || !offer.member) throw accessDenied();
        // A seller's counter-offer (./counter-offers.ts) is answered by the buyer.
        const [proposer, answerer] = offer.counter
          ? [offer.seller_id, offer.buyer_id]
          : [offer.buyer_id, offer.seller_id];
        if (action === 'withdraw') {
          if (proposer !== userId) throw forbidden(roleError(offer.counter, 'withdraw'));
        } else if (answerer !== userId) throw forbidden(roleError(offer.counter, action));
        const changed = [offer.id];
        const setStatus = (status: string) =>
          q(
            `update offers set status = $2,
               answered_at = coalesce(answered_at, now()) where id = $1`,
            [offer.id, status],
          );
        if (offer.status !== 'pending') throw conflict('chatApi.errors.offerNotPending');
        if (action === 'accept') {
          // A book of an open deal is never sold twice (issue 32), whatever its status says.
          await refuseBooksInOpenDeal(q, covered);
          const reserved = await q(
            `update book_listings set status = 'reserved', updated_at = now()
             where id = any($1::uuid[]) and status = 'available' returning id`,
            [covered],
          );
          if (reserved.length !== covered.length) throw listingUnavailable();
          // The other pending offers on these books are declined. An accepted offer on them
          // cannot exist here: its deal is open, and the lock above refused (issue 32).
          const others = await q<{ id: string }>(
            `update offers set status = 'declined', answered_at = now()
             where status = 'pending' and id <> $2
               and id in (select offer_id from offer_listings where listing_id = any($1::uuid[]))
             returning id`,
            [covered, offer.id],
          );
          await setStatus('accepted');
          changed.push(...others.map((o) => o.id));
          // A sale recorded by hand and waiting for someone's confirmation gives way to the deal.
          await q(
            `update transactions set status = 'cancelled'
             where listing_id = any($1::uuid[]) and status = 'pending'`,
            [covered],
          );
          const dealId = await openDeal(q, offer.id);
          // What follows a deal's opening, in this transaction (payments: what the buyer owes).
          await deps.changes.emit('deal.opened', { q, dealId });
          dealStep = {
            dealId,
            messageId: await insertMessage(q, {
              roomId: offer.room_id,
              senderId: userId,
              type: 'deal',
              content: 'deal.opened',
              dealId,
            }),
          };
        } else {
          await setStatus(action === 'decline' ? 'declined' : 'withdrawn');
        }
        return changed;
      });
      const messages = await query<{ id: string; room_id: string; offer_id: string }>(
        'select id, room_id, offer_id from chat_messages where offer_id = any($1::uuid[])',
        [changedOffers],
      );
      for (const m of messages) await publishUpdated(m.room_id, m.id);
      const own = messages.find((m) => m.offer_id === offerId);
      const step = dealStep as { dealId: string; messageId: string | null } | null;
      if (own && step?.messageId) await publishMessage(own.room_id, step.messageId);
      // The conversations' cards and the wishers' "available now" follow the reserved books.
      if (action === 'accept') await deps.changes.emit('listings.status', { listingIds: listings });
      for (const done of tracked) done();
      if (!own) throw accessDenied();
      if (deps.notifications && (action === 'accept' || action === 'decline'))
        await deps.notifications.notify(await offerNotices(query, changedOffers, userId));
      return (await findMessage(query, own.id))!;
    },
  };

  /**
   * Runs an offer answer in one transaction. A losing race (another accept, which the unique
   * index on accepted offers stops, or a deadlock the database broke) is a 409, never a 500.
   */
  async function answerInTransaction<T>(work: (q: Query) => Promise<T>): Promise<T> {
    try {
      return await inTransaction(database, work);
    } catch (err) {
      const state = sqlState(err);
      if (state === '23505' || state === '40P01' || state === '40001')
        throw conflict('chatApi.errors.offerRace');
      throw err;
    }
  }
}
