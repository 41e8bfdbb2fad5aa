-- Saved searches (issue 22, item 5; docs/saved-searches.md, decision 0070).
-- A member's library search kept with a name. Besides the filters as typed, each row keeps what
-- matching a new listing needs, derived once at save time:
--   query        q as the library reads it (to_tsquery('simple', immutable_unaccent(prefix query)));
--   author_norm  the author filter as the library compares it (lower, unaccented, a substring);
--   keys         the search's index keys: 'w:<word>' for each word of the query, else
--                'a:<first 3 letters of author_norm>', else 'g:<genre>' or 'g:*'.
-- A new listing computes its own keys (every prefix of its words, the 1 to 3 letter pieces of its
-- author, its genre and '*') and finds the candidate searches with one GIN lookup (keys && ...);
-- the candidates are then checked against every filter. Listing a book never waits for it.
create table saved_searches (
  id uuid primary key default gen_random_uuid(),
  user_id text not null references users(id) on delete cascade,
  name text not null,
  q text,
  author text,
  genre text,
  listing_type text check (listing_type in ('sell', 'trade', 'both')),
  condition text check (condition in ('new', 'likeNew', 'good', 'fair', 'poor')),
  min_price numeric(10, 2),
  max_price numeric(10, 2),
  -- Matches are told (in the app, and in the daily e-mail digest) while this is on.
  notify boolean not null default true,
  query tsquery,
  author_norm text,
  keys text[] not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index saved_searches_user_idx on saved_searches (user_id, created_at desc, id desc);
create unique index saved_searches_user_name_idx on saved_searches (user_id, lower(name));
create index saved_searches_keys_idx on saved_searches using gin (keys);

-- What was found for a member: one row per member and listing (a listing that matches two of
-- their searches is told once, under the first), waiting for the daily digest until emailed_at.
create table saved_search_matches (
  user_id text not null references users(id) on delete cascade,
  listing_id uuid not null references book_listings(id) on delete cascade,
  search_id uuid references saved_searches(id) on delete set null,
  search_name text not null,
  matched_at timestamptz not null,
  emailed_at timestamptz,
  primary key (user_id, listing_id)
);
create index saved_search_matches_pending_idx on saved_search_matches (matched_at, user_id)
  where emailed_at is null;
create index saved_search_matches_search_idx on saved_search_matches (search_id);

-- The day of each member's last digest: claimed by one conditional upsert, so two processes never
-- send a member two digests in one day (and a restart knows what was sent).
create table saved_search_digests (
  user_id text primary key references users(id) on delete cascade,
  sent_on date not null,
  sent_at timestamptz not null
);
