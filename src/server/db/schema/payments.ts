import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from './columns';
import { users } from './accounts';
import { deals } from './chats';

// Mirrors migration 0050_payments.sql (issue 36, decision 0089: payments with Stripe Connect).

/** A seller's connected account and its state as Stripe last told us. */
export const paymentAccounts = pgTable('payment_accounts', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  stripeAccountId: text('stripe_account_id').notNull().unique(),
  detailsSubmitted: boolean('details_submitted').notNull().default(false),
  payoutsEnabled: boolean('payouts_enabled').notNull().default(false),
  transfersActive: boolean('transfers_active').notNull().default(false),
  createdAt: createdAt(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

/** What a deal's buyer pays (cents) and where the money is. */
export const dealPayments = pgTable(
  'deal_payments',
  {
    dealId: uuid('deal_id')
      .primaryKey()
      .references(() => deals.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('due'),
    currency: text('currency').notNull(),
    booksCents: integer('books_cents').notNull(),
    shippingCents: integer('shipping_cents').notNull().default(0),
    feeCents: integer('fee_cents').notNull(),
    totalCents: integer('total_cents').notNull(),
    dueBy: timestamptz('due_by'),
    checkoutAttempt: integer('checkout_attempt').notNull().default(0),
    checkoutSessionId: text('checkout_session_id').unique(),
    paymentIntentId: text('payment_intent_id').unique(),
    paidAt: timestamptz('paid_at'),
    endedAt: timestamptz('ended_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('deal_payments_due_idx')
      .on(t.dueBy)
      .where(sql`status = 'due'`),
    index('deal_payments_held_idx')
      .on(t.dealId)
      .where(sql`status = 'paid'`),
    check(
      'deal_payments_status_check',
      sql`status in ('due', 'paid', 'released', 'refunded', 'void')`,
    ),
  ],
);

/** Every movement of money, one row each; balances are sums of rows. */
export const paymentLedger = pgTable(
  'payment_ledger',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    dealId: uuid('deal_id').notNull(),
    memberId: text('member_id'),
    kind: text('kind').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    stripeId: text('stripe_id'),
    createdAt: createdAt(),
    confirmedAt: timestamptz('confirmed_at'),
  },
  (t) => [
    uniqueIndex('payment_ledger_once_idx')
      .on(t.dealId, t.kind)
      .where(sql`kind <> 'dispute'`),
    uniqueIndex('payment_ledger_stripe_idx')
      .on(t.stripeId, t.kind)
      .where(sql`stripe_id is not null`),
    index('payment_ledger_member_idx')
      .on(t.memberId, t.createdAt)
      .where(sql`member_id is not null`),
    index('payment_ledger_unconfirmed_idx')
      .on(t.createdAt)
      .where(sql`stripe_id is null`),
  ],
);

/** Stripe's events already handled (a replay changes nothing). */
export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamptz('received_at').notNull().defaultNow(),
});
