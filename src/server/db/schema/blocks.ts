import { index, pgTable, primaryKey } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { memberRef } from './accounts';

/** Blocking between members (migration 0017); the check blocker <> blocked is in the SQL only. */
export const blocks = pgTable(
  'blocks',
  {
    blockerId: memberRef('blocker_id'),
    blockedId: memberRef('blocked_id'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.blockerId, t.blockedId] }),
    index('blocks_blocked_idx').on(t.blockedId, t.blockerId),
    index('blocks_blocker_recent_idx').on(t.blockerId, t.createdAt.desc(), t.blockedId),
  ],
);
