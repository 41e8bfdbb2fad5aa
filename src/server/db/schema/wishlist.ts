import { boolean, pgTable, text, unique, uuid } from 'drizzle-orm/pg-core';
import { createdAt, uuidPk } from './columns';
import { memberRef } from './accounts';
import { books } from './marketplace';
import { works } from './works';

/**
 * A member's wishlists; today one default list ('My Wishlist') per member, which the migration
 * keeps unique with a partial index drizzle's table builder does not express.
 */
export const wishlists = pgTable('wishlists', {
  id: uuidPk(),
  userId: memberRef('user_id'),
  name: text('name').notNull().default('My Wishlist'),
  description: text('description').notNull().default('Books I want to read or acquire'),
  isDefault: boolean('is_default').notNull().default(true),
  createdAt: createdAt(),
});

/** A wished catalogue book; match_key (generated, wish_key(title, author)) is read in raw SQL. */
export const wishlistItems = pgTable(
  'wishlist_items',
  {
    id: uuidPk(),
    wishlistId: uuid('wishlist_id')
      .notNull()
      .references(() => wishlists.id, { onDelete: 'cascade' }),
    userId: memberRef('user_id'),
    /** A wished catalogue book, or null for a wished work (migration 0055: one or the other). */
    bookId: uuid('book_id').references(() => books.id, { onDelete: 'cascade' }),
    /** A wished work: any copy of any of its editions (migration 0055). */
    workId: uuid('work_id').references(() => works.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    author: text('author').notNull(),
    isbn13: text('isbn_13'),
    isbn10: text('isbn_10'),
    createdAt: createdAt(),
  },
  (t) => [unique().on(t.wishlistId, t.bookId)],
);
