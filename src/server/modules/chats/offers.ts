import type { ChatMessage } from '@shared/schemas/chats';
import { AppError, badRequest, conflict, forbidden } from '../../platform/errors';
import { isBlockedBetween } from '../../platform/moderation';
import { inTransaction, sqlState, type Query } from '../../db/tx';
import { listingNotFound } from '../listings/service';
import { offerListingIds, openDeal } from '../deals/context';
import { accessDenied, listingUnavailable, type ChatContext } from './context';
import { insertMessage } from './messages';
import { offerNotices } from './notifications';
import { findListingFacts, findMessage, isParticipant, isUuid, type ListingFacts } from './queries';
import { directRoom } from './rooms';
import { createListingAnnouncer } from './listing-events';
import { claimHolidayReply } from '../profiles/holiday';

export type OfferAction = 'accept' | 'decline' | 'withdraw';

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
 * room, 404 missing or across a block, 400 their own or of the other kind, 409 not available
 * (hidden included), 400 when its seller is not in the room.
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
  if (!listing || (await isBlockedBetween(query, userId, listing.seller_id)))
    throw listingNotFound();
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

/** The marketplace in a chat: contacting a seller about a listing, offers and their answers. */
export function offerActions(ctx: ChatContext) {
  const { deps, database, log, query, publish, orFail } = ctx;
  const { publishMessage, publishUpdated, afterCommit } = ctx;
  return {
    async contact(
      userId: string,
      listingId: string,
      content: string,
    ): Promise<{ roomId: string; message: ChatMessage }> {
      const listing = await findListingFacts(query, listingId);
      // A block hides the two members' listings from each other: as absent as a missing one.
      if (!listing || (await isBlockedBetween(query, userId, listing.seller_id)))
        throw listingNotFound();
      if (listing.seller_id === userId)
        throw badRequest('chatApi.errors.ownListing', { listingId: 'chatApi.errors.ownListing' });
      if (listing.status !== 'available') throw listingUnavailable();
      const sellerId = listing.seller_id;
      const result = await orFail('chatApi.errors.startFailed', () =>
        inTransaction(database, async (q) => {
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
        }>(
          `select o.id, o.listing_id, o.buyer_id, o.seller_id, o.room_id, o.status,
             exists (select 1 from chat_participants p
               where p.room_id = o.room_id and p.user_id = $2) as member
           from offers o where o.id = $1 for update`,
          [offerId, userId],
        );
        if (!offer || !offer.member) throw accessDenied();
        if (action === 'withdraw') {
          if (offer.buyer_id !== userId) throw forbidden('chatApi.errors.onlyBuyer');
        } else if (offer.seller_id !== userId) throw forbidden('chatApi.errors.onlySeller');
        const changed = [offer.id];
        const setStatus = (status: string) =>
          q(
            `update offers set status = $2,
               answered_at = coalesce(answered_at, now()) where id = $1`,
            [offer.id, status],
          );
        if (offer.status !== 'pending') throw conflict('chatApi.errors.offerNotPending');
        if (action === 'accept') {
          const reserved = await q(
            `update book_listings set status = 'reserved', updated_at = now()
             where id = any($1::uuid[]) and status = 'available' returning id`,
            [covered],
          );
          if (reserved.length !== covered.length) throw listingUnavailable();
          // The seller made a listing available again after an earlier accepted offer: the new
          // choice replaces that one (and any other offer on these books), so a listing never
          // has two accepted offers.
          const others = await q<{ id: string }>(
            `update offers set status = 'declined', answered_at = now()
             where status in ('pending', 'accepted') and id <> $2
               and id in (select offer_id from offer_listings where listing_id = any($1::uuid[]))
             returning id`,
            [covered, offer.id],
          );
          await setStatus('accepted');
          changed.push(...others.map((o) => o.id));
          // An earlier accepted offer's deal ends with it.
          await q(
            `update deals set status = 'cancelled', ended_at = now()
             where status = 'open' and offer_id = any($1::uuid[])`,
            [others.map((o) => o.id)],
          );
          // A sale recorded by hand and waiting for someone's confirmation gives way to the deal.
          await q(
            `update transactions set status = 'cancelled'
             where listing_id = any($1::uuid[]) and status = 'pending'`,
            [covered],
          );
          const dealId = await openDeal(q, offer.id);
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
      if (action === 'accept') {
        const announcer = createListingAnnouncer({ realtime: ctx.realtime, query, log });
        for (const l of listings) await announcer.announce(l);
      }
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
