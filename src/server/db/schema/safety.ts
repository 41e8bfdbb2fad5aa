import { bigint, index, pgTable, smallint, text, unique, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, uuidPk } from './columns';
import { citext, users, memberRef } from './accounts';
import { transactions } from './transactions';

/**
 * Trust and safety (migration 0016). The partial unique indexes of reports, the append-only
 * trigger of moderation_log and the listing-count triggers are in the SQL only.
 */
export const admins = pgTable('admins', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  grantedAt: timestamptz('granted_at').notNull().defaultNow(),
});

export const reports = pgTable('reports', {
  id: uuidPk(),
  kind: text('kind').notNull(),
  itemId: text('item_id').notNull(),
  reporterId: text('reporter_id').references(() => users.id, { onDelete: 'set null' }),
  reporterName: text('reporter_name'),
  reporterEmail: citext('reporter_email'),
  /** A visitor's language, for the e-mail telling them the outcome (members: null). */
  reporterLanguage: text('reporter_language').$type<'it' | 'en'>(),
  reason: text('reason').$type<'spam' | 'scam' | 'offensive' | 'illegal' | 'other'>().notNull(),
  text: text('text'),
  status: text('status').$type<'open' | 'dismissed' | 'actioned'>().notNull().default('open'),
  createdAt: createdAt(),
  resolvedAt: timestamptz('resolved_at'),
});

export const moderationLog = pgTable(
  'moderation_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    actorId: text('actor_id'),
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    kind: text('kind'),
    itemId: text('item_id'),
    targetUserId: text('target_user_id'),
    reason: text('reason').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('moderation_log_newest_idx').on(t.createdAt, t.id)],
);

export const reviews = pgTable(
  'reviews',
  {
    id: uuidPk(),
    transactionId: uuid('transaction_id')
      .notNull()
      .references(() => transactions.id, { onDelete: 'cascade' }),
    authorId: memberRef('author_id'),
    subjectId: memberRef('subject_id'),
    rating: smallint('rating').notNull(),
    text: text('text').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    /**
     * Shown from then on (decision 0073): written alone, 14 days after the transaction was agreed;
     * the other party's review publishes both at once. Pending while in the future.
     */
    publishedAt: timestamptz('published_at').notNull().defaultNow(),
  },
  (t) => [unique().on(t.transactionId, t.authorId)],
);
