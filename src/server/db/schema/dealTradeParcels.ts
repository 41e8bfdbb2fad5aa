import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';
import { memberRef } from './accounts';
import { deals } from './chats';

// Mirrors migration 0048_trades_one_exchange_and_by_post.sql (decision 0090).

/** Each member's parcel of a trade by post: the address given by the other, tracking, receipt. */
export const dealTradeParcels = pgTable(
  'deal_trade_parcels',
  {
    dealId: uuid('deal_id')
      .notNull()
      .references(() => deals.id, { onDelete: 'cascade' }),
    senderId: memberRef('sender_id'),
    address: jsonb('address'),
    addressGivenAt: timestamptz('address_given_at'),
    carrier: text('carrier'),
    tracking: text('tracking'),
    shippedAt: timestamptz('shipped_at'),
    receivedAt: timestamptz('received_at'),
  },
  (t) => [
    primaryKey({ columns: [t.dealId, t.senderId] }),
    index('deal_trade_parcels_shipped_idx')
      .on(t.shippedAt)
      .where(sql`shipped_at is not null`),
  ],
);
