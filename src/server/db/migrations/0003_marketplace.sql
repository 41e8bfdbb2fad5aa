create table books (
  id uuid primary key default gen_random_uuid(),
  title text not null,
  authors text[] not null default '{}',
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
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table book_listings (
  id uuid primary key default gen_random_uuid(),
  book_id uuid not null references books(id) on delete restrict,
  user_id text not null references users(id) on delete cascade,
  listing_type text not null check (listing_type in ('sell', 'trade', 'both')),
  condition text not null default 'good' check (condition in ('new', 'likeNew', 'good', 'fair', 'poor')),
  price numeric(10, 2) check (price is null or price >= 0),
  currency text not null default 'EUR',
  description text,
  status text not null default 'available'
    check (status in ('available', 'reserved', 'sold', 'traded', 'unavailable')),
  is_active boolean generated always as (status = 'available') stored,
  images text[] not null default '{}',
  location text,
  shipping_cost numeric(10, 2),
  is_negotiable boolean not null default false,
  shipping_address jsonb not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index book_listings_user_idx on book_listings (user_id, created_at desc);
create index book_listings_status_idx on book_listings (status);

create table transactions (
  id uuid primary key default gen_random_uuid(),
  listing_id uuid references book_listings(id) on delete set null,
  buyer_id text not null references users(id) on delete cascade,
  seller_id text not null references users(id) on delete cascade,
  kind text not null check (kind in ('sale', 'trade')),
  status text not null default 'completed' check (status in ('pending', 'completed', 'cancelled')),
  created_at timestamptz not null default now()
);
create index transactions_buyer_idx on transactions (buyer_id) where status = 'completed';
create index transactions_seller_idx on transactions (seller_id) where status = 'completed';
create index transactions_status_idx on transactions (status);
