import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { inTransaction, sqlState, type Query } from '../../db/tx';
import { AppError, conflict, notFound } from '../../platform/errors';
import type { Notifications, NotifyInput } from '../../platform/notifications';
import type { ListingChanges } from '../../platform/listing-changes';
import type { Realtime } from '../../platform/realtime';
import type { ChatContext } from '../chats/context';
import { insertMessage } from '../chats/messages';
import { createListingAnnouncer } from '../chats/listing-events';
import { recordAgreedSale } from '../listings/service';
import type { DealFacts } from './parts';

export const dealNotFound = () => notFound('deals.errors.notFound');
export const dealNotOpen = () => conflict('deals.errors.notOpen');

/** The notification of every step: `deal.step` with the step's code as its context. */
export const DEAL_STEP_NOTIFICATION = 'deal.step';

interface DealRow {
  id: string;
  offer_id: string;
  room_id: string;
  buyer_id: string;
  seller_id: string;
  kind: 'sale' | 'trade';
  method: 'post' | 'hand';
  status: 'open' | 'completed' | 'cancelled';
  created_at: Date | string;
  ended_at: Date | string | null;
}

const toFacts = (r: DealRow): DealFacts => ({
  id: r.id,
  offerId: r.offer_id,
  roomId: r.room_id,
  buyerId: r.buyer_id,
  sellerId: r.seller_id,
  kind: r.kind,
  method: r.method,
  status: r.status,
  createdAt: new Date(r.created_at),
  endedAt: r.ended_at === null ? null : new Date(r.ended_at),
});

/** A deal's facts; `lock` takes its row for update (inside a transaction). */
export async function loadDeal(q: Query, id: string, lock = false): Promise<DealFacts | null> {
  const [row] = await q<DealRow>(
    `select d.id::text, d.offer_id::text, d.room_id::text, d.buyer_id, d.seller_id,
       (select o.kind from offers o where o.id = d.offer_id) as kind, d.method, d.status,
       d.created_at, d.ended_at
     from deals d where d.id = $1 ${lock ? 'for update of d' : ''}`,
    [id],
  );
  return row ? toFacts(row) : null;
}

/** The listings of an offer (one, or a bundle's), in a stable order. */
export async function offerListingIds(q: Query, offerId: string): Promise<string[]> {
  const rows = await q<{ id: string }>(
    `select listing_id::text as id from offer_listings where offer_id = $1 order by listing_id`,
    [offerId],
  );
  return rows.map((r) => r.id);
}

/**
 * Opens the deal of an offer being accepted (in the accepting transaction): by post when the
 * offer includes shipping, else hand to hand. Returns its id.
 */
export async function openDeal(q: Query, offerId: string): Promise<string> {
  const [row] = await q<{ id: string }>(
    `insert into deals (offer_id, room_id, buyer_id, seller_id, method)
     select id, room_id, buyer_id, seller_id,
       case when shipping_amount is null then 'hand' else 'post' end
     from offers where id = $1
     returning id::text`,
    [offerId],
  );
  return row.id;
}

/**
 * Completes an open deal (locked by the caller): each listing sold with a completed transaction
 * that names the deal, the offer completed. Returns the listings.
 */
export async function completeDeal(q: Query, deal: DealFacts): Promise<string[]> {
  if (deal.status !== 'open') throw dealNotOpen();
  const listings = await offerListingIds(q, deal.offerId);
  // A sale recorded by hand and waiting for someone's confirmation gives way to the deal.
  await q(
    `update transactions set status = 'cancelled'
     where listing_id = any($1::uuid[]) and status = 'pending'`,
    [listings],
  );
  // A trade (decision 0080) records one transaction of kind trade per book, its owner the
  // seller and the other side the buyer; a sale, the deal's seller for every book.
  const owners = await q<{ id: string; user_id: string; kind: 'sale' | 'trade' }>(
    `select l.id::text, l.user_id, o.kind from book_listings l, offers o
     where l.id = any($1::uuid[]) and o.id = $2 order by l.id`,
    [listings, deal.offerId],
  );
  for (const { id: listingId, user_id: ownerId, kind } of owners) {
    const trade = kind === 'trade';
    const seller = trade ? ownerId : deal.sellerId;
    const buyer =
      trade && ownerId === deal.sellerId ? deal.buyerId : trade ? deal.sellerId : deal.buyerId;
    const transactionId = await recordAgreedSale(q, seller, listingId, kind, buyer);
    await q('update transactions set deal_id = $2 where id = $1', [transactionId, deal.id]);
  }
  await q(`update offers set status = 'completed' where id = $1`, [deal.offerId]);
  await q(`update deals set status = 'completed', ended_at = now() where id = $1`, [deal.id]);
  return listings;
}

/**
 * Cancels an open deal (locked by the caller): its reserved listings are available again, the
 * offer cancelled. Returns the listings.
 */
export async function cancelDeal(q: Query, deal: DealFacts): Promise<string[]> {
  if (deal.status !== 'open') throw dealNotOpen();
  const listings = await offerListingIds(q, deal.offerId);
  await q(
    `update book_listings set status = 'available', updated_at = now()
     where id = any($1::uuid[]) and status = 'reserved'`,
    [listings],
  );
  await q(`update offers set status = 'cancelled' where id = $1`, [deal.offerId]);
  await q(`update deals set status = 'cancelled', ended_at = now() where id = $1`, [deal.id]);
  return listings;
}

export interface DealContextDeps {
  database: Database;
  query: Query;
  chat: ChatContext;
  realtime: Realtime;
  notifications: Notifications;
  listingChanges: ListingChanges;
  now: () => Date;
  log: FastifyBaseLogger;
  /** The wishlist's "available now" and alerts (modules/wishlist/alerts.ts), as the chats use. */
  wishlist: { announce(listingId: string): void; availabilityChanged(listingId: string): void };
}

/**
 * What the core and the parts (post, meetings) share to change a deal: one transaction around the
 * step, its message in the conversation, and after the commit the live messages, the listings'
 * announcements (chat cards, watchers, saved searches) and the notifications.
 */
export function createDealContext(deps: DealContextDeps) {
  const { database, query, chat, realtime, log } = deps;
  const announcer = createListingAnnouncer({ realtime, query, log });

  /** Inserts a step's message (type 'deal', content its code) in the transaction. */
  async function step(q: Query, deal: DealFacts, senderId: string, code: string) {
    const id = await insertMessage(q, {
      roomId: deal.roomId,
      senderId,
      type: 'deal',
      content: code,
      dealId: deal.id,
    });
    // A block or a deleted account closes the conversation: the step is still recorded.
    if (!id)
      log.info({ dealId: deal.id, code }, 'deal step without a message: conversation closed');
    return id;
  }

  interface StepOutcome<T> {
    result: T;
    /** The step messages inserted (published after the commit). */
    messages: (string | null)[];
    /** The listings whose status changed (announced after the commit). */
    listings?: string[];
    /** Notifications to send after the commit. */
    notices?: NotifyInput[];
  }

  /**
   * Runs one change of deal `id` in a transaction, with the deal locked and `viewer` checked by
   * `work`; then publishes what changed. A lost race is a 409, never a 500.
   */
  async function change<T>(
    id: string,
    work: (q: Query, deal: DealFacts) => Promise<StepOutcome<T>>,
  ): Promise<T> {
    // Watchers, saved searches and chat cards hear of a listing's new status
    // (platform/listing-changes.ts): read the listings as they are before the change.
    const before = await loadDeal(query, id);
    if (!before) throw dealNotFound();
    const listings = await offerListingIds(query, before.offerId);
    const tracked = await Promise.all(listings.map((l) => deps.listingChanges.track(l)));
    let outcome: StepOutcome<T>;
    try {
      outcome = await inTransaction(database, async (q) => {
        const deal = await loadDeal(q, id, true);
        if (!deal) throw dealNotFound();
        return work(q, deal);
      });
    } catch (err) {
      const state = sqlState(err);
      if (state === '23505' || state === '40P01' || state === '40001')
        throw conflict('deals.errors.race');
      if (err instanceof AppError) throw err;
      log.error({ err, dealId: id }, 'deal change failed');
      throw new AppError(500, 'internal', 'deals.errors.failed');
    }
    for (const m of outcome.messages) if (m) await chat.publishMessage(before.roomId, m);
    if (outcome.listings?.length) {
      // The offer's card in the conversation shows the new status.
      const offerMessages = await query<{ id: string }>(
        'select id::text from chat_messages where offer_id = $1',
        [before.offerId],
      );
      for (const m of offerMessages) await chat.publishUpdated(before.roomId, m.id);
      for (const l of outcome.listings) await announcer.announce(l);
      // Wishers see "available now" change; a deal cancelled lists its books again for them.
      const back = await query<{ id: string }>(
        `select id::text from book_listings where id = any($1::uuid[]) and status = 'available'`,
        [outcome.listings],
      );
      const available = new Set(back.map((r) => r.id));
      for (const l of outcome.listings)
        if (available.has(l)) deps.wishlist.announce(l);
        else deps.wishlist.availabilityChanged(l);
    }
    for (const done of tracked) done();
    if (outcome.notices?.length) await deps.notifications.notify(outcome.notices);
    return outcome.result;
  }

  /**
   * The notification of a step to the other side of the deal (or to both, actor null). A trade's
   * say so (`variant`): its words are a trade's where the locales have them (`step_<code>_trade`),
   * as its messages' are (DealStepMessage).
   */
  function notice(
    deal: DealFacts,
    code: string,
    actorId: string | null,
    data: Record<string, string | number | null> = {},
  ): NotifyInput[] {
    const recipients = [deal.buyerId, deal.sellerId].filter((id) => id !== actorId);
    return recipients.map((recipientId) => ({
      recipientId,
      type: DEAL_STEP_NOTIFICATION,
      actorId: actorId ?? undefined,
      // Like an offer's, it opens the conversation, where the deal's card is.
      subject: { type: 'room', id: deal.roomId },
      data: {
        ...data,
        dealId: deal.id,
        context: code.replace(/\./g, '_'),
        ...(deal.kind === 'trade' ? { variant: 'trade' } : {}),
      },
    }));
  }

  return { ...deps, step, change, notice };
}

export type DealContext = ReturnType<typeof createDealContext>;
