import { pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, uuidPk } from './columns';
import { memberRef } from './accounts';

/**
 * Friend requests (pending) and friendships (accepted). The migration adds a unique index on the
 * unordered pair, which drizzle's table builder does not express.
 */
export const connections = pgTable('connections', {
  id: uuidPk(),
  requesterId: memberRef('requester_id'),
  addresseeId: memberRef('addressee_id'),
  status: text('status').$type<'pending' | 'accepted'>().notNull().default('pending'),
  createdAt: createdAt(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});
