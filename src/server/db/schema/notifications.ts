import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, uuidPk } from './columns';
import { users, memberRef } from './accounts';

// Mirrors migration 0011_notifications.sql (the migration is the source of truth).

export const notifications = pgTable(
  'notifications',
  {
    id: uuidPk(),
    recipientId: memberRef('recipient_id'),
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
    readAt: timestamptz('read_at'),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
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
    userId: memberRef('user_id'),
    type: text('type').notNull(),
    inApp: boolean('in_app').notNull(),
    email: boolean('email').notNull(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.type] })],
);

export const notificationDigests = pgTable('notification_digests', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  sentAt: timestamptz('sent_at').notNull(),
});
