import { z } from 'zod';
import type { Module } from '../../platform/module';
import { memberWriteLimit } from '../../platform/route-presets';
import type { Database } from '../../db/client';
import type { Notifications } from '../../platform/notifications';
import { currentUser } from '../../platform/auth';
import { AppError, errorSchema, notFound } from '../../platform/errors';
import {
  pendingTransactionsSchema,
  transactionAnswerSchema,
  type PendingTransaction,
} from '@shared/transactions';
import { inTransaction, queryOf } from '../../db/tx';
import { isUuid } from '@shared/schemas/common';
import { createListingAnnouncer } from '../chats';

/** Confirmation notifications are about the transaction row. */
export const TRANSACTION_SUBJECT = 'transaction';

/** Not pending, not the member's to answer, or no such row: the same answer. */
const notAwaiting = () => notFound('reviews.confirm.errors.notFound');

/**
 * 'transaction.confirm' (to the member a seller named, while the sale waits for them) and
 * 'transaction.answered' (to the seller, with `context` 'confirmed' or 'declined'). Both open the
 * private area's trades page, where the pending sale is answered.
 */
export function defineTransactionNotifications(notifications: Notifications, database: Database) {
  const link = ({ recipientId }: { recipientId: string }) =>
    `/profile/${encodeURIComponent(recipientId)}/transactions`;
  const where = (condition: string) => async (recipientId: string, ids: string[]) => {
    const rows = await database.query<{ id: string }>(
      `select id::text as id from transactions where id = any($2::uuid[]) and ${condition}`,
      [recipientId, ids],
    );
    return new Set(rows.map((r) => r.id));
  };
  notifications.defineType({
    type: 'transaction.confirm',
    defaults: { inApp: true, email: true },
    link,
    // About a sale between them: it reaches across a block (decision 0036, audience.ts).
    acrossBlocks: true,
    // A deleted listing leaves nothing to confirm.
    visible: where(`status = 'pending' and buyer_id = $1 and listing_id is not null`),
  });
  notifications.defineType({
    type: 'transaction.answered',
    defaults: { inApp: true, email: false },
    link,
    acrossBlocks: true,
    visible: where('seller_id = $1'),
  });
}

export function createConfirmationService(database: Database) {
  return {
    /** Sales waiting for my answer, and mine waiting for the other member's, newest first. */
    async pending(userId: string): Promise<PendingTransaction[]> {
      const rows = await database.query<{
        id: string;
        kind: 'sale' | 'trade';
        buyer_id: string;
        listing_id: string | null;
        listing_title: string | null;
        other_id: string;
        other_name: string;
        other_username: string | null;
        created_at: Date;
      }>(
        `select t.id, t.kind, t.buyer_id, t.listing_id, l.title as listing_title,
           o.id as other_id, o.display_name as other_name, o.username::text as other_username,
           t.created_at
         from transactions t
         join users o on o.id = case when t.buyer_id = $1 then t.seller_id else t.buyer_id end
         left join book_listings l on l.id = t.listing_id
         where t.status = 'pending' and (t.buyer_id = $1 or t.seller_id = $1)
           and t.listing_id is not null and o.account_status <> 'deleted'
         order by t.created_at desc, t.id desc limit 50`,
        [userId],
      );
      return rows.map((r) => ({
        transactionId: r.id,
        kind: r.kind,
        role: r.buyer_id === userId ? 'buyer' : 'seller',
        listingId: r.listing_id,
        listingTitle: r.listing_title,
        other: { id: r.other_id, displayName: r.other_name, username: r.other_username },
        createdAt: new Date(r.created_at).toISOString(),
      }));
    },

    /**
     * The named member agrees: the listing becomes sold or traded and the transaction completed
     * and agreed, together. Locks go listing first, then the transaction, as every other path.
     * A listing meanwhile sold, traded, deleted or promised in an open deal (an accepted offer:
     * the deal completes it, decision 0083) cancels the request (409).
     */
    async confirm(userId: string, id: string) {
      if (!isUuid(id)) throw notAwaiting();
      const [asked] = await database.query<{ listing_id: string | null }>(
        `select listing_id from transactions where id = $1 and buyer_id = $2 and status = 'pending'`,
        [id, userId],
      );
      if (!asked) throw notAwaiting();
      const outcome = await inTransaction(database, async (q) => {
        if (asked.listing_id)
          await q('select id from book_listings where id = $1 for no key update', [
            asked.listing_id,
          ]);
        const [tx] = await q<{ seller_id: string; kind: 'sale' | 'trade'; listing_id: string }>(
          `select seller_id, kind, listing_id from transactions
           where id = $1 and buyer_id = $2 and status = 'pending' for update`,
          [id, userId],
        );
        if (!tx) return 'gone' as const;
        const sold = await q(
          `update book_listings l set status = $3, updated_at = now()
           where id = $1 and user_id = $2 and status not in ('sold', 'traded')
             and not exists (select 1 from deals d join offer_listings ol on ol.offer_id = d.offer_id
               where ol.listing_id = l.id and d.status = 'open')
           returning id`,
          [tx.listing_id, tx.seller_id, tx.kind === 'sale' ? 'sold' : 'traded'],
        );
        if (sold.length === 0) {
          await q(`update transactions set status = 'cancelled' where id = $1`, [id]);
          return 'unavailable' as const;
        }
        await q(`update transactions set status = 'completed', agreed_at = now() where id = $1`, [
          id,
        ]);
        // This member's accepted offer, if the seller also accepted one, is the same deal.
        await q(
          `update offers set status = 'completed', answered_at = coalesce(answered_at, now())
           where listing_id = $1 and buyer_id = $2 and status = 'accepted'`,
          [tx.listing_id, userId],
        );
        return { sellerId: tx.seller_id };
      });
      if (outcome === 'gone') throw notAwaiting();
      if (outcome === 'unavailable')
        throw new AppError(409, 'conflict', 'listings.errors.alreadyCompleted');
      return { sellerId: outcome.sellerId, status: 'completed' as const };
    },

    /** The named member says no, or the seller takes the request back: nothing is recorded. */
    async decline(userId: string, id: string) {
      if (!isUuid(id)) throw notAwaiting();
      const [row] = await database.query<{ seller_id: string; buyer_id: string }>(
        `update transactions set status = 'cancelled'
         where id = $1 and status = 'pending' and (buyer_id = $2 or seller_id = $2)
         returning seller_id, buyer_id`,
        [id, userId],
      );
      if (!row) throw notAwaiting();
      return { sellerId: row.seller_id, byBuyer: row.buyer_id === userId };
    },
  };
}

const tags = ['reviews'];
const security = [{ session: [] }];
const idParams = z.object({ id: z.string().max(64) });
const answers = { 200: transactionAnswerSchema, 401: errorSchema, 404: errorSchema };

/** The routes where a member answers a sale the seller says they made with them. */
export const confirmationRoutes: Module = async (
  app,
  { database, notifications, realtime, listingChanges },
) => {
  const chatCards = createListingAnnouncer({ realtime, query: queryOf(database), log: app.log });
  defineTransactionNotifications(notifications, database);
  const service = createConfirmationService(database);
  const writes = {
    preHandler: app.requireUser,
    config: memberWriteLimit(30, '1 minute'),
  };
  const told = (recipientId: string, actorId: string, id: string, context: string) =>
    notifications.notify({
      recipientId,
      type: 'transaction.answered',
      actorId,
      subject: { type: TRANSACTION_SUBJECT, id },
      data: { context },
    });

  app.get(
    '/api/transactions/pending',
    {
      preHandler: app.requireUser,
      schema: {
        tags,
        security,
        summary:
          'Sales and trades waiting for my confirmation, and mine waiting for the other member',
        response: { 200: pendingTransactionsSchema, 401: errorSchema },
      },
    },
    async (request) => {
      return { items: await service.pending(currentUser(request).id) };
    },
  );

  app.post(
    '/api/transactions/:id/confirm',
    {
      ...writes,
      schema: {
        tags,
        security,
        summary:
          'Confirm a sale or trade a seller recorded with me: it then counts and can be reviewed',
        params: idParams,
        response: { ...answers, 409: errorSchema },
      },
    },
    async (request) => {
      const me = currentUser(request).id;
      // A confirmed sale sells its listing: its watchers hear of it (platform/listing-changes).
      const [pending] = await database.query<{ listing_id: string | null }>(
        'select listing_id::text as listing_id from transactions where id::text = $1',
        [request.params.id],
      );
      const listingChanged = pending?.listing_id
        ? await listingChanges.track(pending.listing_id)
        : () => {};
      const { sellerId, status } = await service.confirm(me, request.params.id);
      await told(sellerId, me, request.params.id, 'confirmed');
      const [tx] = await database.query<{ listing_id: string | null }>(
        'select listing_id from transactions where id = $1',
        [request.params.id],
      );
      if (tx?.listing_id) await chatCards.announce(tx.listing_id);
      listingChanged();
      return { transactionId: request.params.id, status };
    },
  );

  app.post(
    '/api/transactions/:id/decline',
    {
      ...writes,
      schema: {
        tags,
        security,
        summary: 'Decline a sale a seller recorded with me (or, as its seller, take it back)',
        params: idParams,
        response: answers,
      },
    },
    async (request) => {
      const me = currentUser(request).id;
      const { sellerId, byBuyer } = await service.decline(me, request.params.id);
      if (byBuyer) await told(sellerId, me, request.params.id, 'declined');
      return { transactionId: request.params.id, status: 'cancelled' as const };
    },
  );
};
