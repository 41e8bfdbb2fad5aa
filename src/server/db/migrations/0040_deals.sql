-- Deals that finish on the platform (issue 22; decision 0072). The shared core: an accepted offer
-- becomes a deal, carried to its end by post (listings with a shipping cost) or by hand (the
-- others). Sale by post, meetings and bundles each keep their own state in tables of their own.

-- The listings an offer covers: one row for a single book, several for a bundle of one seller.
create table offer_listings (
  offer_id uuid not null references offers(id) on delete cascade,
  listing_id uuid not null references book_listings(id) on delete cascade,
  primary key (offer_id, listing_id)
);
create index offer_listings_listing_idx on offer_listings (listing_id, offer_id);
insert into offer_listings (offer_id, listing_id) select id, listing_id from offers;

-- The shipping cost the offer's total includes (null: handed over, no shipping).
alter table offers add column shipping_amount numeric(10, 2) check (shipping_amount >= 0);
-- A deal can be cancelled (its listings become available again).
alter table offers drop constraint offers_status_check;
alter table offers add constraint offers_status_check
  check (status in ('pending', 'accepted', 'declined', 'withdrawn', 'completed', 'cancelled'));

create table deals (
  id uuid primary key default gen_random_uuid(),
  offer_id uuid not null unique references offers(id) on delete cascade,
  room_id uuid not null references chat_rooms(id) on delete cascade,
  buyer_id text not null references users(id) on delete cascade,
  seller_id text not null references users(id) on delete cascade,
  method text not null check (method in ('post', 'hand')),
  status text not null default 'open' check (status in ('open', 'completed', 'cancelled')),
  created_at timestamptz not null default now(),
  ended_at timestamptz,
  check (buyer_id <> seller_id)
);
create index deals_buyer_idx on deals (buyer_id, created_at desc, id);
create index deals_seller_idx on deals (seller_id, created_at desc, id);
create index deals_open_idx on deals (created_at) where status = 'open';
-- Offers accepted (or completed) before deals existed get theirs, handed over.
insert into deals (offer_id, room_id, buyer_id, seller_id, method, status, created_at, ended_at)
select id, room_id, buyer_id, seller_id, 'hand',
  case status when 'accepted' then 'open' else 'completed' end,
  coalesce(answered_at, created_at),
  case when status = 'completed' then coalesce(answered_at, created_at) end
from offers where status in ('accepted', 'completed');

-- Each step of a deal is a message in its conversation: type 'deal', content the step's code.
alter table chat_messages add column deal_id uuid references deals(id) on delete set null;
alter table chat_messages drop constraint chat_messages_type_check;
alter table chat_messages add constraint chat_messages_type_check
  check (type in ('text', 'listing', 'offer', 'system', 'deal'));
create index chat_messages_deal_idx on chat_messages (deal_id) where deal_id is not null;

-- A transaction completed by a deal names it (one per listing of a bundle).
alter table transactions add column deal_id uuid references deals(id) on delete set null;
create index transactions_deal_idx on transactions (deal_id) where deal_id is not null;
