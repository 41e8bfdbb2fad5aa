import { bigserial, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';
import { users } from './accounts';

export const mailOutbox = pgTable('mail_outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html'),
  createdAt: createdAt(),
  /** Members the e-mail names besides its recipient: their account deletion deletes it. */
  aboutUserIds: text('about_user_ids').array().notNull().default([]),
  replyTo: text('reply_to'),
});

/** Who uploaded each stored file (null: shared, never released by a member). */
export const uploads = pgTable(
  'uploads',
  {
    url: text('url').primaryKey(),
    ownerId: text('owner_id').references(() => users.id, { onDelete: 'set null' }),
    bytes: integer('bytes'),
    createdAt: createdAt(),
  },
  (t) => [index('uploads_owner_idx').on(t.ownerId)],
);

export const contactMessages = pgTable('contact_messages', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  subject: text('subject').notNull(),
  message: text('message').notNull(),
  language: text('language').notNull().default('it'),
  ip: text('ip'),
  createdAt: createdAt(),
});
