-- In-app payments with buyer protection (issue 36; decision 0089; docs/payments.md). Buyers pay
-- through Stripe Checkout, the platform holds the money (separate charges and transfers) and
-- transfers the seller's share when the deal completes, or refunds the buyer.

-- A seller's connected account (Stripe Connect Express), created once, its state as Stripe last
-- told us (account.updated, or read again when the seller opens their payments page).
create table payment_accounts (
  user_id text primary key references users(id) on delete cascade,
  stripe_account_id text not null unique,
  details_submitted boolean not null default false,
  payouts_enabled boolean not null default false,
  -- The account may receive transfers: the seller can be paid in the app.
  transfers_active boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- What a deal's buyer pays and where the money is. Written when a sale is accepted while payments
-- are on; the amounts are the agreed offer's (books and shipping) plus the fee, in cents.
create table deal_payments (
  deal_id uuid primary key references deals(id) on delete cascade,
  -- due: waiting for the buyer; paid: held by the platform; released: the seller's share sent
  -- (a case may have refunded part first); refunded: all back to the buyer; void: the deal ended
  -- without an in-app payment.
  status text not null default 'due'
    check (status in ('due', 'paid', 'released', 'refunded', 'void')),
  currency text not null,
  books_cents integer not null check (books_cents >= 0),
  shipping_cents integer not null default 0 check (shipping_cents >= 0),
  fee_cents integer not null check (fee_cents >= 0),
  total_cents integer not null,
  -- The buyer pays by then or the deal is cancelled; null: no limit (hand to hand, optional).
  due_by timestamptz,
  -- The Checkout session of the latest attempt (one attempt at a time; a new one once it expired).
  checkout_attempt integer not null default 0,
  checkout_session_id text unique,
  payment_intent_id text unique,
  paid_at timestamptz,
  ended_at timestamptz,
  created_at timestamptz not null default now(),
  check (total_cents = books_cents + shipping_cents + fee_cents)
);
create index deal_payments_due_idx on deal_payments (due_by) where status = 'due';
create index deal_payments_held_idx on deal_payments (deal_id) where status = 'paid';

-- The ledger: every movement of money is a row, balances are sums of rows. A charge (what the
-- buyer paid, fee included) and its fee (the platform's part); a transfer to the seller; a refund
-- to the buyer; a dispute the buyer's bank opened. A transfer or refund is claimed here (stripe_id
-- null) in its own transaction before Stripe is asked, so it happens once; Stripe's answer fills
-- stripe_id. Rows name their deal and member without foreign keys: the ledger is the accounting
-- record and stays when a deal or an account is erased.
create table payment_ledger (
  id bigint generated always as identity primary key,
  deal_id uuid not null,
  -- The buyer (charge, refund, dispute), the seller (transfer), none (the platform's fee).
  member_id text,
  kind text not null check (kind in ('charge', 'fee', 'transfer', 'refund', 'dispute')),
  amount_cents integer not null check (amount_cents >= 0),
  currency text not null,
  stripe_id text,
  created_at timestamptz not null default now(),
  confirmed_at timestamptz
);
-- One charge, fee, transfer and refund per deal: money never moves twice.
create unique index payment_ledger_once_idx on payment_ledger (deal_id, kind)
  where kind <> 'dispute';
create unique index payment_ledger_stripe_idx on payment_ledger (stripe_id, kind)
  where stripe_id is not null;
create index payment_ledger_member_idx on payment_ledger (member_id, created_at)
  where member_id is not null;
create index payment_ledger_unconfirmed_idx on payment_ledger (created_at)
  where stripe_id is null;

-- Stripe's events already handled, by id: a replayed or repeated event changes nothing.
create table payment_events (
  id text primary key,
  type text not null,
  received_at timestamptz not null default now()
);
