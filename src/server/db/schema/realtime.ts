import { index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts';

/** Which process holds a live socket of which member (see platform/realtime/presence.ts). */
export const realtimePresence = pgTable(
  'realtime_presence',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    processId: text('process_id').notNull(),
    connectedAt: timestamp('connected_at', { withTimezone: true }).notNull().defaultNow(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.processId] }),
    index('realtime_presence_process_idx').on(t.processId),
    index('realtime_presence_seen_idx').on(t.seenAt),
  ],
);
