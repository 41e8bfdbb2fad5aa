-- Sale by post (issue 22 item 1; decision 0074): saved addresses, a deal's parcel (the address
-- copied into it, carrier and tracking, the buyer's window) and a problem's case with messages.

-- A member's saved addresses (at most ADDRESSES_MAX, checked by the route under a lock).
create table member_addresses (
  id uuid primary key default gen_random_uuid(),
  user_id text not null references users(id) on delete cascade,
  name text not null check (length(name) between 1 and 100),
  street text not null check (length(street) between 1 and 200),
  postal_code text not null check (length(postal_code) between 2 and 12),
  city text not null check (length(city) between 1 and 100),
  region text not null default '' check (length(region) <= 100),
  country text not null check (country ~ '^[A-Z]{2}$'),
  phone text not null default '' check (length(phone) <= 20),
  created_at timestamptz not null default now()
);
create index member_addresses_user_idx on member_addresses (user_id, created_at, id);

-- One row per deal by post, from the moment the buyer gives the address. The address is a copy:
-- a later edit of the saved one does not change it.
create table deal_posts (
  deal_id uuid primary key references deals(id) on delete cascade,
  address jsonb not null,
  address_given_at timestamptz not null,
  carrier text,
  tracking text check (length(tracking) <= 40),
  shipped_at timestamptz,
  received_at timestamptz,
  -- When the open deal completes by itself (null: not shipped, ended, or a case is open).
  window_ends_at timestamptz,
  check ((carrier is null) = (shipped_at is null))
);
-- The window job's scan: only rows still waiting.
create index deal_posts_window_idx on deal_posts (window_ends_at) where window_ends_at is not null;

-- A problem the buyer reported: one per deal, resolved by an admin (completed or cancelled).
create table deal_cases (
  deal_id uuid primary key references deals(id) on delete cascade,
  reason text not null check (reason in ('not_arrived', 'not_as_described', 'damaged')),
  opened_by text references users(id) on delete set null,
  opened_at timestamptz not null,
  outcome text check (outcome in ('completed', 'cancelled')),
  resolved_by text references users(id) on delete set null,
  resolved_at timestamptz
);
-- The admins' list: open cases first, oldest first; then resolved ones, newest first.
create index deal_cases_open_idx on deal_cases (opened_at, deal_id) where outcome is null;
create index deal_cases_opened_idx on deal_cases (opened_at desc, deal_id);

create table deal_case_messages (
  id uuid primary key default gen_random_uuid(),
  deal_id uuid not null references deal_cases(deal_id) on delete cascade,
  author_id text references users(id) on delete set null,
  as_admin boolean not null default false,
  body text not null check (length(body) between 1 and 2000),
  created_at timestamptz not null default now()
);
create index deal_case_messages_deal_idx on deal_case_messages (deal_id, created_at, id);
