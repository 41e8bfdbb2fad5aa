import { boolean, date, numeric, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, uuidPk } from './columns';
import { users, memberRef } from './accounts';
import { bookListings } from './marketplace';

/**
 * Saved searches (migration 0039). The derived matching columns (query, author_norm, keys) are
 * written and read by raw SQL only (modules/saved-searches/queries.ts), as are the unique name and
 * GIN indexes.
 */
export const savedSearches = pgTable('saved_searches', {
  id: uuidPk(),
  userId: memberRef('user_id'),
  name: text('name').notNull(),
  q: text('q'),
  author: text('author'),
  genre: text('genre'),
  listingType: text('listing_type'),
  condition: text('condition'),
  minPrice: numeric('min_price', { precision: 10, scale: 2 }),
  maxPrice: numeric('max_price', { precision: 10, scale: 2 }),
  notify: boolean('notify').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

/** A listing found for a member, waiting for the daily digest until emailed_at. */
export const savedSearchMatches = pgTable(
  'saved_search_matches',
  {
    userId: memberRef('user_id'),
    listingId: uuid('listing_id')
      .notNull()
      .references(() => bookListings.id, { onDelete: 'cascade' }),
    searchId: uuid('search_id').references(() => savedSearches.id, { onDelete: 'set null' }),
    searchName: text('search_name').notNull(),
    matchedAt: timestamptz('matched_at').notNull(),
    emailedAt: timestamptz('emailed_at'),
  },
  (t) => [primaryKey({ columns: [t.userId, t.listingId] })],
);

/** The day of each member's last saved-search digest. */
export const savedSearchDigests = pgTable('saved_search_digests', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  sentOn: date('sent_on').notNull(),
  sentAt: timestamptz('sent_at').notNull(),
});
