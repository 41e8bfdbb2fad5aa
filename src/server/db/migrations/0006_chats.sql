-- Chats: rooms (direct or group), their participants, messages, offers made in a conversation,
-- and the hourly throttle of "you have new messages" e-mails.

create table chat_rooms (
  id uuid primary key default gen_random_uuid(),
  name text,
  description text,
  is_group boolean not null default false,
  created_by text references users(id) on delete set null,
  -- 'a:b' with a < b for the one direct room of a pair: two simultaneous first messages meet on
  -- this unique index instead of creating two rooms.
  direct_key text unique,
  -- The listing a contact started about (shown in the room's header).
  listing_id uuid references book_listings(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (is_group = (direct_key is null))
);

create table chat_participants (
  room_id uuid not null references chat_rooms(id) on delete cascade,
  user_id text not null references users(id) on delete cascade,
  joined_at timestamptz not null default now(),
  last_read_at timestamptz not null default now(),
  primary key (room_id, user_id)
);
-- "My rooms" and "who shares a room with me" (presence).
create index chat_participants_user_idx on chat_participants (user_id, room_id);

create table offers (
  id uuid primary key default gen_random_uuid(),
  listing_id uuid not null references book_listings(id) on delete cascade,
  buyer_id text not null references users(id) on delete cascade,
  seller_id text not null references users(id) on delete cascade,
  room_id uuid not null references chat_rooms(id) on delete cascade,
  amount numeric(10, 2) not null check (amount > 0),
  currency text not null check (currency in ('EUR', 'USD', 'GBP')),
  status text not null default 'pending'
    check (status in ('pending', 'accepted', 'declined', 'withdrawn', 'completed')),
  created_at timestamptz not null default now(),
  answered_at timestamptz,
  check (buyer_id <> seller_id)
);
-- One open offer per buyer and listing, whatever the timing of two requests.
create unique index offers_one_pending_idx on offers (listing_id, buyer_id) where status = 'pending';
create index offers_listing_status_idx on offers (listing_id, status);

create table chat_messages (
  id uuid primary key default gen_random_uuid(),
  room_id uuid not null references chat_rooms(id) on delete cascade,
  sender_id text references users(id) on delete set null,
  type text not null default 'text' check (type in ('text', 'listing', 'offer', 'system')),
  content text not null default '',
  listing_id uuid references book_listings(id) on delete set null,
  offer_id uuid references offers(id) on delete set null,
  -- clock_timestamp, not now(): a card and a text posted in one transaction keep their order.
  created_at timestamptz not null default clock_timestamp(),
  edited_at timestamptz,
  deleted_at timestamptz
);
-- Pages (before/after a message), the last message of a room and unread counts.
create index chat_messages_room_idx on chat_messages (room_id, created_at, id);
create index chat_messages_offer_idx on chat_messages (offer_id) where offer_id is not null;

create table chat_email_notices (
  room_id uuid not null references chat_rooms(id) on delete cascade,
  user_id text not null references users(id) on delete cascade,
  sent_at timestamptz not null,
  primary key (room_id, user_id)
);
