-- Connections between members (friend requests and friendships). A declined request or a removed
-- friendship deletes its row (spec 2 section 4: pending to none, accepted to none).
create table connections (
  id uuid primary key default gen_random_uuid(),
  requester_id text not null references users (id) on delete cascade,
  addressee_id text not null references users (id) on delete cascade,
  status text not null default 'pending' check (status in ('pending', 'accepted')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (requester_id <> addressee_id)
);
-- One connection per pair of members whichever way it was asked: two requests sent at the same
-- moment in opposite directions cannot both be stored (the second insert finds a conflict).
create unique index connections_pair_idx
  on connections (least(requester_id, addressee_id), greatest(requester_id, addressee_id));
create index connections_requester_idx on connections (requester_id, status, created_at desc);
create index connections_addressee_idx on connections (addressee_id, status, created_at desc);

-- Find friends by name or username (substring, case- and accent-insensitive).
create index users_display_name_trgm_idx
  on users using gin ((lower(immutable_unaccent(display_name))) gin_trgm_ops);
create index users_username_trgm_idx
  on users using gin ((lower(username::text)) gin_trgm_ops);
