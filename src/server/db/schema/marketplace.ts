import { sql } from 'drizzle-orm';
import {
  boolean,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { deals } from './chats';

export const books = pgTable('books', {
  id: uuid('id').primaryKey().defaultRandom(),
  title: text('title').notNull(),
  authors: text('authors').array().notNull().default([]),
  /** authors joined by ', ' */
  author: text('author').notNull().default(''),
  isbn10: text('isbn_10'),
  isbn13: text('isbn_13'),
  publisher: text('publisher'),
  publishedDate: text('published_date'),
  description: text('description'),
  pageCount: integer('page_count'),
  categories: text('categories').array().notNull().default([]),
  language: text('language'),
  coverUrl: text('cover_url'),
  googleBooksId: text('google_books_id').unique(),
  // search_text and search_vector are generated columns, read only in raw SQL.
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const bookListings = pgTable('book_listings', {
  id: uuid('id').primaryKey().defaultRandom(),
  bookId: uuid('book_id')
    .notNull()
    .references(() => books.id),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  title: text('title').notNull(),
  author: text('author').notNull(),
  genre: text('genre').notNull().default('other'),
  language: text('language'),
  isbn: text('isbn'),
  /** An uploaded cover (/uploads/...); remote covers stay on the book. */
  coverUrl: text('cover_url'),
  listingType: text('listing_type').notNull(),
  condition: text('condition').notNull().default('good'),
  price: numeric('price', { precision: 10, scale: 2 }),
  currency: text('currency').notNull().default('EUR'),
  description: text('description'),
  status: text('status').notNull().default('available'),
  isActive: boolean('is_active').generatedAlwaysAs(sql`status = 'available'`),
  images: text('images').array().notNull().default([]),
  location: text('location'),
  shippingCost: numeric('shipping_cost', { precision: 10, scale: 2 }),
  /** Set when a moderator hides the listing (migration 0016); hidden listings are not counted or shown. */
  hiddenAt: timestamp('hidden_at', { withTimezone: true }),
  isNegotiable: boolean('is_negotiable').notNull().default(false),
  shippingAddress: jsonb('shipping_address').notNull().default({}),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const transactions = pgTable(
  'transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    listingId: uuid('listing_id').references(() => bookListings.id, { onDelete: 'set null' }),
    buyerId: text('buyer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sellerId: text('seller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    status: text('status').notNull().default('completed'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When both members had agreed (accepted offer or confirmation); null: not reviewable. */
    agreedAt: timestamp('agreed_at', { withTimezone: true }),
    /** The deal that completed it (migration 0040); a bundle's deal has one per listing. */
    dealId: uuid('deal_id').references((): AnyPgColumn => deals.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('transactions_one_pending_idx')
      .on(t.listingId)
      .where(sql`status = 'pending'`),
  ],
);
