import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, uuidPk } from './columns';
import { memberRef } from './accounts';
import { deals } from './chats';

// Mirrors migration 0043_deal_meetings.sql (the migration is the source of truth; decision 0075).

/** A meeting proposed for a hand-to-hand deal; at most one current (open or accepted) per deal. */
export const dealMeetings = pgTable(
  'deal_meetings',
  {
    id: uuidPk(),
    dealId: uuid('deal_id')
      .notNull()
      .references(() => deals.id, { onDelete: 'cascade' }),
    proposedBy: memberRef('proposed_by'),
    place: text('place').notNull(),
    note: text('note'),
    meetAt: timestamptz('meet_at').notNull(),
    /** 'open' | 'accepted' | 'replaced' */
    status: text('status').notNull().default('open'),
    createdAt: createdAt(),
    answeredAt: timestamptz('answered_at'),
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
    userId: memberRef('user_id'),
    confirmedAt: timestamptz('confirmed_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.dealId, t.userId] }),
    index('deal_meeting_confirmations_user_idx').on(t.userId),
  ],
);
