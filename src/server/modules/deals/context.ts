import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { inTransaction, sqlState, type Query } from '../../db/tx';
import { AppError, conflict, notFound } from '../../platform/errors';
import type { Notifications, NotifyInput } from '../../platform/notifications';
import type { ListingChanges } from '../../platform/listing-changes';
import type { Changes } from '../../platform/changes';
import type { Realtime } from '../../platform/realtime';
import { type ChatContext, insertMessage } from '../chats';
import { alreadyCompleted, recordAgreedSale } from '../listings';
import type { DealFacts, DealParts } from './parts';

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
  created_at: Date;
  ended_at: Date | null;
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
  // What was agreed stays agreed (issue 32): the books as they are now, under the accept's locks.
  await q(
    `insert into deal_books (deal_id, position, listing_id, owner_id, title, author, condition,
       description, price, currency, shipping_cost, cover_url)
     select $1, row_number() over (order by l.title, l.id), l.id, l.user_id, l.title, l.author,
       l.condition, l.description, l.price, l.currency, l.shipping_cost,
       coalesce(l.cover_url, case when b.cover_url is not null then '/api/covers/' || b.id end)
     from offer_listings ol join book_listings l on l.id = ol.listing_id
     left join books b on b.id = l.book_id
     where ol.offer_id = $2`,
    [row.id, offerId],
  );
  return row.id;
}

/**
 * Completes an open deal (locked by the caller), the offer completed. A sale: each listing sold,
 * with a completed transaction naming the deal. A trade (decision 0080, issue 33): one exchange
 * between two members, so one completed transaction of kind `trade` (its listing the book asked
 * for, the proposer its buyer, the owner its seller: one review each way), every book of both
 * sides traded. Returns the listings.
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
  const recorded: string[] = [];
  if (deal.kind === 'trade') {
    const [asked] = await q<{ listing_id: string }>(
      'select listing_id::text from offers where id = $1',
      [deal.offerId],
    );
    recorded.push(
      await recordAgreedSale(q, deal.sellerId, asked.listing_id, 'trade', deal.buyerId),
    );
    // The proposer's books change hands in the same exchange: no transaction of their own.
    const given = await q(
      `update book_listings set status = 'traded', updated_at = now()
       where id = any($1::uuid[]) and id <> $2 and user_id = $3
         and status not in ('sold', 'traded')
       returning id`,
      [listings, asked.listing_id, deal.buyerId],
    );
    if (given.length !== listings.length - 1) throw alreadyCompleted();
  } else
    for (const listingId of listings)
      recorded.push(await recordAgreedSale(q, deal.sellerId, listingId, 'sale', deal.buyerId));
  await q('update transactions set deal_id = $2 where id = any($1::uuid[])', [recorded, deal.id]);
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
  /** The deal's parts by method (post, hand), built once by the deals module (./routes.ts). */
  parts: DealParts;
  database: Database;
  query: Query;
  chat: ChatContext;
  realtime: Realtime;
  notifications: Notifications;
  listingChanges: ListingChanges;
  /**
   * What changed (platform/changes.ts): the listings a step changed (the chat cards, the
   * wishlist), a deal that ended (payments: its money follows), a parcel about to leave.
   */
  changes: Changes;
  now: () => Date;
  log: FastifyBaseLogger;
}

/**
 * What the core and the parts (post, meetings) share to change a deal: the parts, one transaction
 * around the step, its message in the conversation, and after the commit the live messages, what
 * changed (platform/changes.ts: chat cards, wishlist, payments; listing-changes.ts: watchers,
 * saved searches) and the notifications.
 */
export function createDealContext(deps: DealContextDeps) {
  const { database, query, chat, log } = deps;

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
      // The conversations' cards and the wishers' "available now" follow the books.
      await deps.changes.emit('listings.status', { listingIds: outcome.listings });
    }
    for (const done of tracked) done();
    // Completed or cancelled (its books changed): the money is released or refunded.
    if (outcome.listings?.length) await deps.changes.emit('deal.ended', { dealId: id });
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
