import {
  boolean,
  check,
  customType,
  date,
  index,
  pgTable,
  text,
  unique,
} from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from './columns';
import { sql } from 'drizzle-orm';

export const citext = customType<{ data: string }>({ dataType: () => 'citext' });

export const users = pgTable(
  'users',
  {
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
    lastSeenAt: timestamptz('last_seen_at'),
    /** When the member accepted the terms of service, and which (migration 0049). */
    termsAcceptedAt: timestamptz('terms_accepted_at').defaultNow(),
    termsVersion: text('terms_version'),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // The @name shown is the username in the letter case its owner typed, never another name.
    check(
      'users_display_username_is_username',
      sql`${t.displayUsername} is null or (${t.username} is not null and lower(${t.displayUsername}) = lower(${t.username}::text))`,
    ),
  ],
);

/** A member's id, `text not null references users(id) on delete cascade`: rows go with them. */
export function memberRef(name: string) {
  return text(name)
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });
}

/**
 * Triggers of migration 0025 (SQL only) announce every ended session with NOTIFY, so the realtime
 * service closes its sockets on every process.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: memberRef('user_id'),
    token: text('token').notNull().unique(),
    expiresAt: timestamptz('expires_at').notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    userId: memberRef('user_id'),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamptz('access_token_expires_at'),
    refreshTokenExpiresAt: timestamptz('refresh_token_expires_at'),
    scope: text('scope'),
    password: text('password'),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [unique().on(t.providerId, t.accountId), index('accounts_user_idx').on(t.userId)],
);

export const verifications = pgTable(
  'verifications',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('verifications_identifier_idx').on(t.identifier)],
);
