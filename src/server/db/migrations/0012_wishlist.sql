-- Wishlists (spec 2 section 3): one default list per member, 'My Wishlist', got or created on
-- first use; its items point at catalogue books. A wished book is matched against new listings
-- (alerts) and against other members' trade listings (trade matches) by the same book, the same
-- ISBN or the same normalised title and author; every one of those lookups has an index below.

-- The matching key of a title and an author: lower case, no accents, letters and digits only
-- ("Il Nome della Rosa!" by "Umberto  Eco" = "ilnomedellarosa|umbertoeco").
create function wish_key(title text, author text) returns text
  language sql immutable parallel safe as $$
  select regexp_replace(lower(public.immutable_unaccent(coalesce(title, ''))), '[^[:alnum:]]+', '', 'g')
    || '|' ||
    regexp_replace(lower(public.immutable_unaccent(coalesce(author, ''))), '[^[:alnum:]]+', '', 'g')
$$;

create table wishlists (
  id uuid primary key default gen_random_uuid(),
  user_id text not null references users (id) on delete cascade,
  name text not null default 'My Wishlist',
  description text not null default 'Books I want to read or acquire',
  is_default boolean not null default true,
  created_at timestamptz not null default now()
);
-- One default list per member: two first uses at the same moment insert one row (on conflict).
create unique index wishlists_default_idx on wishlists (user_id) where is_default;

create table wishlist_items (
  id uuid primary key default gen_random_uuid(),
  wishlist_id uuid not null references wishlists (id) on delete cascade,
  -- The list's owner, kept on the item so alerts and trade matches need no join to find them.
  user_id text not null references users (id) on delete cascade,
  book_id uuid not null references books (id) on delete cascade,
  title text not null,
  author text not null,
  isbn_13 text,
  isbn_10 text,
  match_key text generated always as (wish_key(title, author)) stored,
  created_at timestamptz not null default now(),
  unique (wishlist_id, book_id)
);
create index wishlist_items_list_idx on wishlist_items (wishlist_id, created_at desc, id desc);
create index wishlist_items_user_idx on wishlist_items (user_id, book_id);
-- A listed book finds its wishers by these (alerts and trade matches).
create index wishlist_items_book_idx on wishlist_items (book_id);
create index wishlist_items_isbn13_idx on wishlist_items (isbn_13) where isbn_13 is not null;
create index wishlist_items_isbn10_idx on wishlist_items (isbn_10) where isbn_10 is not null;
create index wishlist_items_key_idx on wishlist_items (match_key);

-- A wished book finds the available listings that offer it (the wishlist's "available now" and
-- the trade matches; the same book uses book_listings_book_idx).
create index book_listings_available_isbn_idx on book_listings (isbn)
  where status = 'available' and isbn is not null;
create index book_listings_available_key_idx on book_listings (wish_key(title, author))
  where status = 'available';
-- A member's own available trade listings (trade matches).
create index book_listings_trade_user_idx on book_listings (user_id, created_at desc)
  where status = 'available' and listing_type in ('trade', 'both');
