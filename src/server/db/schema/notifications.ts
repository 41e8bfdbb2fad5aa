import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts';

// Mirrors migration 0011_notifications.sql (the migration is the source of truth).

export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    recipientId: text('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    actorId: text('actor_id').references(() => users.id, { onDelete: 'cascade' }),
    actorCount: integer('actor_count').notNull().default(1),
    subjectType: text('subject_type').notNull(),
    subjectId: text('subject_id').notNull(),
    data: jsonb('data').$type<Record<string, string | number | null>>().notNull().default({}),
    onceKey: text('once_key'),
    groupKey: text('group_key'),
    inApp: boolean('in_app').notNull().default(true),
    emailPending: boolean('email_pending').notNull().default(false),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_recipient_list_idx')
      .on(t.recipientId, t.updatedAt.desc(), t.id.desc())
      .where(sql`in_app`),
    index('notifications_recipient_unread_idx')
      .on(t.recipientId, t.type)
      .where(sql`read_at is null and in_app`),
    uniqueIndex('notifications_once_idx')
      .on(t.recipientId, t.type, t.onceKey)
      .where(sql`once_key is not null`),
    uniqueIndex('notifications_group_idx')
      .on(t.recipientId, t.type, t.groupKey)
      .where(sql`group_key is not null and read_at is null`),
    index('notifications_subject_idx').on(t.subjectType, t.subjectId),
  ],
);

export const notificationSettings = pgTable(
  'notification_settings',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    inApp: boolean('in_app').notNull(),
    email: boolean('email').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.type] })],
);

export const notificationDigests = pgTable('notification_digests', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
});
