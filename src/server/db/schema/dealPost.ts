import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, uuidPk } from './columns';
import { users, memberRef } from './accounts';
import { deals } from './chats';

// Mirrors migration 0042_deal_post.sql (sale by post, issue 22 item 1, decision 0074).

/** A member's saved shipping addresses. */
export const memberAddresses = pgTable(
  'member_addresses',
  {
    id: uuidPk(),
    userId: memberRef('user_id'),
    name: text('name').notNull(),
    street: text('street').notNull(),
    postalCode: text('postal_code').notNull(),
    city: text('city').notNull(),
    region: text('region').notNull().default(''),
    country: text('country').notNull(),
    phone: text('phone').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('member_addresses_user_idx').on(t.userId, t.createdAt, t.id)],
);

/** A deal's parcel: the address copied in, carrier and tracking, the buyer's window. */
export const dealPosts = pgTable(
  'deal_posts',
  {
    dealId: uuid('deal_id')
      .primaryKey()
      .references(() => deals.id, { onDelete: 'cascade' }),
    address: jsonb('address').notNull(),
    addressGivenAt: timestamptz('address_given_at').notNull(),
    carrier: text('carrier'),
    tracking: text('tracking'),
    shippedAt: timestamptz('shipped_at'),
    receivedAt: timestamptz('received_at'),
    windowEndsAt: timestamptz('window_ends_at'),
  },
  (t) => [
    index('deal_posts_window_idx')
      .on(t.windowEndsAt)
      .where(sql`window_ends_at is not null`),
  ],
);

/** A problem reported on a parcel: one per deal, resolved by an admin. */
export const dealCases = pgTable(
  'deal_cases',
  {
    dealId: uuid('deal_id')
      .primaryKey()
      .references(() => deals.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    openedBy: text('opened_by').references(() => users.id, { onDelete: 'set null' }),
    openedAt: timestamptz('opened_at').notNull(),
    outcome: text('outcome'),
    resolvedBy: text('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    resolvedAt: timestamptz('resolved_at'),
  },
  (t) => [
    index('deal_cases_open_idx')
      .on(t.openedAt, t.dealId)
      .where(sql`outcome is null`),
    index('deal_cases_opened_idx').on(t.openedAt.desc(), t.dealId),
  ],
);

export const dealCaseMessages = pgTable(
  'deal_case_messages',
  {
    id: uuidPk(),
    dealId: uuid('deal_id')
      .notNull()
      .references(() => dealCases.dealId, { onDelete: 'cascade' }),
    authorId: text('author_id').references(() => users.id, { onDelete: 'set null' }),
    asAdmin: boolean('as_admin').notNull().default(false),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('deal_case_messages_deal_idx').on(t.dealId, t.createdAt, t.id)],
);
