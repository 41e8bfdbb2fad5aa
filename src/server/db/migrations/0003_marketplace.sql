-- Marketplace: the book catalogue (Google Books cache), listings and completed transactions.
-- Text search runs on columns generated from unaccented text, so PGlite and PostgreSQL share
-- every index: 'simple' tsvectors (Italian and English titles alike, no stemming) for words and
-- prefixes, pg_trgm for typos and author substrings.

create table books (
  id uuid primary key default gen_random_uuid(),
  title text not null,
  authors text[] not null default '{}',
  -- authors joined by ', ' (kept by the server; arrays cannot feed an immutable expression)
  author text not null default '',
  isbn_10 text,
  isbn_13 text,
  publisher text,
  published_date text,
  description text,
  page_count integer,
  categories text[] not null default '{}',
  language text,
  cover_url text,
  google_books_id text unique,
  search_text text generated always as (lower(immutable_unaccent(title || ' ' || author))) stored,
  search_vector tsvector generated always as (
    setweight(to_tsvector('simple', immutable_unaccent(title)), 'A') ||
    setweight(to_tsvector('simple', immutable_unaccent(author)), 'B')
  ) stored,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index books_isbn13_idx on books (isbn_13) where isbn_13 is not null;
create index books_isbn10_idx on books (isbn_10) where isbn_10 is not null;
create index books_search_vector_idx on books using gin (search_vector);
create index books_search_text_trgm_idx on books using gin (search_text gin_trgm_ops);

create table book_listings (
  id uuid primary key default gen_random_uuid(),
  book_id uuid not null references books(id) on delete restrict,
  user_id text not null references users(id) on delete cascade,
  -- What the seller wrote (the catalogue row may spell it differently); searched and shown.
  title text not null,
  author text not null,
  genre text not null default 'other' check (genre in (
    'fiction', 'nonFiction', 'mystery', 'romance', 'sciFi', 'fantasy', 'biography', 'history',
    'selfHelp', 'business', 'academic', 'children', 'youngAdult', 'poetry', 'drama', 'other',
    'textbook', 'comics')),
  language text,
  isbn text,
  -- An uploaded cover (/uploads/...); otherwise the book's remote cover is served by /api/covers.
  cover_url text,
  listing_type text not null check (listing_type in ('sell', 'trade', 'both')),
  condition text not null default 'good' check (condition in ('new', 'likeNew', 'good', 'fair', 'poor')),
  price numeric(10, 2) check (price is null or price >= 0),
  currency text not null default 'EUR' check (currency in ('EUR', 'USD', 'GBP')),
  description text,
  status text not null default 'available'
    check (status in ('available', 'reserved', 'sold', 'traded', 'unavailable')),
  is_active boolean generated always as (status = 'available') stored,
  images text[] not null default '{}',
  location text,
  shipping_cost numeric(10, 2) check (shipping_cost is null or shipping_cost >= 0),
  is_negotiable boolean not null default false,
  shipping_address jsonb not null default '{}',
  author_norm text generated always as (lower(immutable_unaccent(author))) stored,
  search_text text generated always as (lower(immutable_unaccent(title || ' ' || author))) stored,
  search_vector tsvector generated always as (
    setweight(to_tsvector('simple', immutable_unaccent(title)), 'A') ||
    setweight(to_tsvector('simple', immutable_unaccent(author)), 'B') ||
    setweight(to_tsvector('simple', immutable_unaccent(coalesce(description, ''))), 'C')
  ) stored,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- Owner pages (my books, a user's books, profile counters).
create index book_listings_user_idx on book_listings (user_id, created_at desc, id desc);
create index book_listings_book_idx on book_listings (book_id);
-- Library default and sorts: status first (almost every query filters on it), then the order.
create index book_listings_status_newest_idx on book_listings (status, created_at desc, id desc);
create index book_listings_status_price_idx on book_listings (status, price, created_at desc, id desc);
create index book_listings_status_price_desc_idx on book_listings (status, price desc nulls last, created_at desc, id desc);
create index book_listings_genre_newest_idx on book_listings (genre, status, created_at desc, id desc);
-- Best deals per genre (cheapest first).
create index book_listings_genre_price_idx on book_listings (genre, status, price, created_at desc);
create index book_listings_type_newest_idx on book_listings (listing_type, status, created_at desc, id desc);
create index book_listings_search_vector_idx on book_listings using gin (search_vector);
create index book_listings_search_text_trgm_idx on book_listings using gin (search_text gin_trgm_ops);
create index book_listings_author_trgm_idx on book_listings using gin (author_norm gin_trgm_ops);

create table transactions (
  id uuid primary key default gen_random_uuid(),
  listing_id uuid references book_listings(id) on delete set null,
  buyer_id text not null references users(id) on delete cascade,
  seller_id text not null references users(id) on delete cascade,
  kind text not null check (kind in ('sale', 'trade')),
  status text not null default 'completed' check (status in ('pending', 'completed', 'cancelled')),
  created_at timestamptz not null default now(),
  check (buyer_id <> seller_id)
);
create index transactions_buyer_idx on transactions (buyer_id) where status = 'completed';
create index transactions_seller_idx on transactions (seller_id) where status = 'completed';
create index transactions_status_idx on transactions (status);
create index transactions_listing_idx on transactions (listing_id);
