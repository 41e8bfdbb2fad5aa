import { sql } from 'drizzle-orm';
import { pgTable, text, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, uuidPk } from './columns';
import { memberRef } from './accounts';
import { deals } from './chats';
import { bookListings } from './marketplace';

/**
 * Sales and trades recorded between two members (their reviews hang on them). Its own file: it
 * names both a listing (./marketplace.ts) and the deal that completed it (./chats.ts), which
 * names listings itself.
 */
export const transactions = pgTable(
  'transactions',
  {
    id: uuidPk(),
    listingId: uuid('listing_id').references(() => bookListings.id, { onDelete: 'set null' }),
    buyerId: memberRef('buyer_id'),
    sellerId: memberRef('seller_id'),
    kind: text('kind').notNull(),
    status: text('status').notNull().default('completed'),
    createdAt: createdAt(),
    /** When both members had agreed (accepted offer or confirmation); null: not reviewable. */
    agreedAt: timestamptz('agreed_at'),
    /** The deal that completed it (migration 0040); a bundle's deal has one per listing. */
    dealId: uuid('deal_id').references((): AnyPgColumn => deals.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('transactions_one_pending_idx')
      .on(t.listingId)
      .where(sql`status = 'pending'`),
  ],
);
