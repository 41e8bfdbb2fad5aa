import { index, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from './columns';
import { users, memberRef } from './accounts';
import { bookListings } from './marketplace';
import { chatRooms } from './chats';

/** A member watches a listing (issue 22 item 4, migration 0038). */
export const listingWatches = pgTable(
  'listing_watches',
  {
    userId: memberRef('user_id'),
    listingId: uuid('listing_id')
      .notNull()
      .references(() => bookListings.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.listingId] }),
    index('listing_watches_listing_idx').on(t.listingId),
  ],
);

/** A seller on holiday while the row exists (issue 22 item 6, migration 0038). */
export const memberHolidays = pgTable('member_holidays', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  id: uuid('id').notNull().defaultRandom().unique(),
  awayUntil: timestamptz('away_until').notNull(),
  autoReply: text('auto_reply'),
  createdAt: createdAt(),
});

/** The holiday's automatic reply, sent once per conversation and holiday. */
export const holidayReplies = pgTable(
  'holiday_replies',
  {
    holidayId: uuid('holiday_id')
      .notNull()
      .references(() => memberHolidays.id, { onDelete: 'cascade' }),
    roomId: uuid('room_id')
      .notNull()
      .references(() => chatRooms.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.holidayId, t.roomId] })],
);
