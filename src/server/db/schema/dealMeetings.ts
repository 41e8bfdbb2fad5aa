import { sql } from 'drizzle-orm';
import {
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { deals } from './chats';

// Mirrors migration 0043_deal_meetings.sql (the migration is the source of truth; decision 0075).

/** A meeting proposed for a hand-to-hand deal; at most one current (open or accepted) per deal. */
export const dealMeetings = pgTable(
  'deal_meetings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    dealId: uuid('deal_id')
      .notNull()
      .references(() => deals.id, { onDelete: 'cascade' }),
    proposedBy: text('proposed_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    place: text('place').notNull(),
    note: text('note'),
    meetAt: timestamp('meet_at', { withTimezone: true }).notNull(),
    /** 'open' | 'accepted' | 'replaced' */
    status: text('status').notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('deal_meetings_current_idx')
      .on(t.dealId)
      .where(sql`status in ('open', 'accepted')`),
    index('deal_meetings_deal_idx').on(t.dealId, t.createdAt.desc()),
    index('deal_meetings_proposer_idx').on(t.proposedBy),
  ],
);

/** Each side's confirmation that the exchange happened. */
export const dealMeetingConfirmations = pgTable(
  'deal_meeting_confirmations',
  {
    dealId: uuid('deal_id')
      .notNull()
      .references(() => deals.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.dealId, t.userId] }),
    index('deal_meeting_confirmations_user_idx').on(t.userId),
  ],
);
