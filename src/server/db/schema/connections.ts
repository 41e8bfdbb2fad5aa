import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

/**
 * Friend requests (pending) and friendships (accepted). The migration adds a unique index on the
 * unordered pair, which drizzle's table builder does not express.
 */
export const connections = pgTable('connections', {
  id: uuid('id').primaryKey().defaultRandom(),
  requesterId: text('requester_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  addresseeId: text('addressee_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  status: text('status').$type<'pending' | 'accepted'>().notNull().default('pending'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
