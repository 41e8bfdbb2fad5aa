import { sql } from 'drizzle-orm';
import { index, integer, numeric, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { memberRef } from './accounts';
import { bookListings } from './marketplace';
import { deals } from './chats';

// Mirrors migration 0047_deal_books_as_agreed.sql (issue 32: what was agreed stays agreed).

/** A deal's books as they were when its offer was accepted; the listing itself may be gone. */
export const dealBooks = pgTable(
  'deal_books',
  {
    dealId: uuid('deal_id')
      .notNull()
      .references(() => deals.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    listingId: uuid('listing_id').references(() => bookListings.id, { onDelete: 'set null' }),
    ownerId: memberRef('owner_id'),
    title: text('title').notNull(),
    author: text('author').notNull(),
    condition: text('condition').notNull(),
    description: text('description'),
    price: numeric('price', { precision: 10, scale: 2 }),
    currency: text('currency').notNull(),
    shippingCost: numeric('shipping_cost', { precision: 10, scale: 2 }),
    coverUrl: text('cover_url'),
  },
  (t) => [
    primaryKey({ columns: [t.dealId, t.position] }),
    index('deal_books_listing_idx')
      .on(t.listingId)
      .where(sql`listing_id is not null`),
  ],
);
