import { index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';
import { memberRef } from './accounts';

/** Which process holds a live socket of which member (see platform/realtime/presence.ts). */
export const realtimePresence = pgTable(
  'realtime_presence',
  {
    userId: memberRef('user_id'),
    processId: text('process_id').notNull(),
    connectedAt: timestamptz('connected_at').notNull().defaultNow(),
    seenAt: timestamptz('seen_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.processId] }),
    index('realtime_presence_process_idx').on(t.processId),
    index('realtime_presence_seen_idx').on(t.seenAt),
  ],
);
