-- Advertisements (issue 11): authors' book ads, their counted events, per-day counters for
-- analytics and budgets, reviews of advertised books, and the daily salt that tells viewers
-- apart without cookies.

create table book_advertisements (
  id uuid primary key default gen_random_uuid(),
  author_id text not null references users(id) on delete cascade,
  title text not null,
  subtitle text,
  description text not null,
  genre text not null,
  language text not null default 'en',
  isbn13 text,
  publisher text,
  publication_year integer,
  page_count integer check (page_count >= 1),
  ad_type text not null default 'banner'
    check (ad_type in ('banner', 'featured', 'spotlight', 'promoted')),
  -- Lower-cased, trimmed, no empties (src/shared/schemas/ads.ts): matched with && on the GIN index.
  keywords text[] not null default '{}',
  target_audience text[] not null default '{}',
  cover_image_url text,
  promotional_images text[] not null default '{}',
  trailer_video_url text,
  sample_chapter_url text,
  author_website_url text,
  social_links text[] not null default '{}',
  -- {amazon, bookshop, barnes_noble, author_website}: each an http(s) URL when present.
  purchase_links jsonb not null default '{}',
  book_price numeric(12, 2) check (book_price >= 0),
  currency text not null default 'EUR' check (currency in ('EUR', 'USD', 'GBP', 'CAD', 'AUD')),
  -- 0 means no cap.
  daily_budget numeric(12, 2) not null default 0 check (daily_budget >= 0),
  total_budget numeric(12, 2) not null default 0 check (total_budget >= 0),
  -- 'expired' is never stored: an active ad past its end date shows as expired when read.
  status text not null default 'draft' check (status in ('draft', 'active', 'paused', 'rejected')),
  start_date date,
  end_date date,
  -- Kept by the ad_book_reviews trigger below.
  review_count integer not null default 0,
  rating_sum integer not null default 0,
  average_rating numeric(3, 2) not null default 0,
  -- All-time counted events, kept by the batched event writer in the same statement as the
  -- events themselves (the total budget compares click_count × cost per click).
  view_count integer not null default 0,
  click_count integer not null default 0,
  conversion_count integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (end_date is null or start_date is null or end_date >= start_date)
);
-- The author's list, per tab, newest first.
create index book_advertisements_author_idx
  on book_advertisements (author_id, status, created_at desc, id);
-- Serving: active ads by genre, by keyword overlap (GIN), newest first for the promoted list.
create index book_advertisements_active_genre_idx
  on book_advertisements (genre, created_at desc) where status = 'active';
create index book_advertisements_active_keywords_idx
  on book_advertisements using gin (keywords) where status = 'active';
create index book_advertisements_active_idx
  on book_advertisements (created_at desc, id) where status = 'active';

-- One counted event: once per ad, kind, UTC day and viewer. viewer_hash is
-- HMAC-SHA256(day's salt, who) in base64url; the inputs are never stored. user_agent, referrer and
-- device only with the viewer's marketing consent.
create table ad_events (
  id bigint generated always as identity primary key,
  ad_id uuid not null references book_advertisements(id) on delete cascade,
  kind text not null check (kind in ('impression', 'click', 'conversion')),
  day date not null,
  viewer_hash text not null,
  placement text,
  store text,
  device text check (device in ('mobile', 'tablet', 'desktop')),
  user_agent text,
  referrer text,
  created_at timestamptz not null default now()
);
create unique index ad_events_once_idx on ad_events (ad_id, kind, day, viewer_hash);
-- The analytics' 20 most recent events.
create index ad_events_recent_idx on ad_events (ad_id, created_at desc, id desc);

-- Counters per ad and UTC day, written with the events: analytics series and today's spend.
create table ad_daily_stats (
  ad_id uuid not null references book_advertisements(id) on delete cascade,
  day date not null,
  impressions integer not null default 0,
  clicks integer not null default 0,
  conversions integer not null default 0,
  primary key (ad_id, day)
);

create table ad_book_reviews (
  id uuid primary key default gen_random_uuid(),
  ad_id uuid not null references book_advertisements(id) on delete cascade,
  reviewer_id text not null references users(id) on delete cascade,
  rating smallint not null check (rating between 1 and 5),
  review_text text not null,
  verified_purchase boolean not null default false,
  created_at timestamptz not null default now(),
  unique (ad_id, reviewer_id)
);
create index ad_book_reviews_page_idx on ad_book_reviews (ad_id, created_at desc, id desc);
create index ad_book_reviews_reviewer_idx on ad_book_reviews (reviewer_id);

-- The ad's rating follows its reviews in SQL, exact under concurrent reviews (x = x + 1).
create function ad_review_counts() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    update book_advertisements set
      review_count = review_count + 1,
      rating_sum = rating_sum + new.rating,
      average_rating = round((rating_sum + new.rating)::numeric / (review_count + 1), 2)
    where id = new.ad_id;
  elsif tg_op = 'DELETE' then
    update book_advertisements set
      review_count = review_count - 1,
      rating_sum = rating_sum - old.rating,
      average_rating = case when review_count - 1 = 0 then 0
        else round((rating_sum - old.rating)::numeric / (review_count - 1), 2) end
    where id = old.ad_id;
  elsif tg_op = 'UPDATE' and new.rating <> old.rating then
    update book_advertisements set
      rating_sum = rating_sum - old.rating + new.rating,
      average_rating = round((rating_sum - old.rating + new.rating)::numeric / review_count, 2)
    where id = new.ad_id;
  end if;
  return null;
end;
$$;
create trigger ad_book_reviews_count
  after insert or delete or update of rating on ad_book_reviews
  for each row execute function ad_review_counts();

-- Today's salt of the viewer hash, shared by every server process; yesterday's is deleted when
-- today's is made, so a hash can no longer be recomputed from a guessed address.
create table ad_viewer_salts (
  day date primary key,
  salt bytea not null
);
