import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, numeric, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, uuidPk } from './columns';
import { memberRef } from './accounts';
import { works } from './works';

export const books = pgTable('books', {
  id: uuidPk(),
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
  /** The work this edition belongs to (migration 0053), set on the book's first listing. */
  workId: uuid('work_id').references(() => works.id, { onDelete: 'set null' }),
  // search_text and search_vector are generated columns, read only in raw SQL.
  createdAt: createdAt(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

export const bookListings = pgTable('book_listings', {
  id: uuidPk(),
  bookId: uuid('book_id')
    .notNull()
    .references(() => books.id),
  userId: memberRef('user_id'),
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
  hiddenAt: timestamptz('hidden_at'),
  isNegotiable: boolean('is_negotiable').notNull().default(false),
  shippingAddress: jsonb('shipping_address').notNull().default({}),
  /** Its book's work, unless an admin chose another (kept by a trigger, migration 0053). */
  workId: uuid('work_id').references(() => works.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});
