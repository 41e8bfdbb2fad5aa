import { boolean, customType, date, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const citext = customType<{ data: string }>({ dataType: () => 'citext' });

export const users = pgTable('users', {
  id: text('id').primaryKey(),
  email: citext('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  displayName: text('display_name').notNull().default(''),
  avatarUrl: text('avatar_url'),
  username: citext('username').unique(),
  displayUsername: text('display_username'),
  firstName: text('first_name'),
  lastName: text('last_name'),
  bio: text('bio'),
  locationCity: text('location_city'),
  locationCountry: text('location_country'),
  phone: text('phone'),
  dateOfBirth: date('date_of_birth'),
  preferredLanguage: text('preferred_language').notNull().default('en'),
  emailNotifications: boolean('email_notifications').notNull().default(true),
  pushNotifications: boolean('push_notifications').notNull().default(true),
  privacyLevel: text('privacy_level').notNull().default('public'),
  accountStatus: text('account_status').notNull().default('active'),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
