import type { Notifications, NotifyInput } from '../../../platform/notifications';
import type { Query } from '../../../db/tx';
import { defineRoomNotification, ROOM_SUBJECT as SUBJECT } from '../../chats';

/**
 * 'offer.received' (to the seller) and 'offer.answered' (to the buyer, with `context` 'accepted'
 * or 'declined', including offers declined because another was accepted). Shown while the
 * recipient is still in the room; deleted with the room.
 */
export function defineOfferNotifications(notifications: Notifications, query: Query) {
  // An offer received is news a seller must not miss: it is e-mailed by default (issue 33). Its
  // answers are chat messages, which already reach members who are away by e-mail (chats/email.ts), so
  // those stay out of the digest unless the member asks.
  defineRoomNotification(notifications, query, 'offer.received', { inApp: true, email: true });
  for (const type of ['offer.answered', 'offer.countered'])
    defineRoomNotification(notifications, query, type, { inApp: true, email: false });
}

/** The notifications of offers that were just made, accepted or declined (after the commit). */
export async function offerNotices(
  query: Query,
  offerIds: readonly string[],
  actorId: string,
): Promise<NotifyInput[]> {
  const offers = await query<{
    buyer_id: string;
    seller_id: string;
    room_id: string;
    amount: string | number | null;
    currency: string;
    kind: string;
    offered: string | null;
    status: string;
    listing_id: string;
    title: string;
    counter: boolean;
  }>(
    `select o.buyer_id, o.seller_id, o.room_id::text as room_id, o.amount, o.currency, o.status,
       o.counter_of is not null as counter,
       o.listing_id::text as listing_id, l.title, o.kind,
       case when o.kind = 'trade' then
         (select string_agg(tl.title, ', ' order by tl.title, tl.id)
          from offer_listings tol join book_listings tl on tl.id = tol.listing_id
          where tol.offer_id = o.id and tl.user_id = o.buyer_id) end as offered
     from offers o join book_listings l on l.id = o.listing_id
     where o.id = any($1::uuid[])`,
    [offerIds],
  );
  return offers.flatMap((o): NotifyInput[] => {
    // The amount as data (number and ISO currency): each reader sees it written in their
    // language when the notification is shown (`@shared/notificationText`).
    // A trade (decision 0080) has no amount: it names the books offered, and its texts are the
    // type's with the context 'trade' (offer.received_trade, offer.answered_trade_accepted).
    const trade = o.kind === 'trade';
    const data: Record<string, string | number | null> = trade
      ? { title: o.title, offered: o.offered ?? '', listingId: o.listing_id }
      : { title: o.title, amount: Number(o.amount), currency: o.currency, listingId: o.listing_id };
    const subject = { type: SUBJECT, id: o.room_id };
    // A seller's counter-offer (./counter.ts) goes to the buyer; their answer to the seller.
    if (o.counter && o.status === 'pending')
      return [{ recipientId: o.buyer_id, type: 'offer.countered', actorId, subject, data }];
    if (o.counter && (o.status === 'accepted' || o.status === 'declined'))
      return [
        {
          recipientId: o.seller_id,
          type: 'offer.answered',
          actorId,
          subject,
          data: { ...data, context: `counter_${o.status}` },
        },
      ];
    if (o.status === 'pending')
      return [
        {
          recipientId: o.seller_id,
          type: 'offer.received',
          actorId,
          subject,
          data: trade ? { ...data, context: 'trade' } : data,
        },
      ];
    if (o.status === 'accepted' || o.status === 'declined')
      return [
        {
          recipientId: o.buyer_id,
          type: 'offer.answered',
          actorId,
          subject,
          data: { ...data, context: trade ? `trade_${o.status}` : o.status },
        },
      ];
    return [];
  });
}
