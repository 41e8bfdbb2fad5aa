-- Trust and safety: the admin role, reports, the moderation audit log, hidden items, suspended
-- members and reviews after a trade.

-- Admins, granted and revoked from the command line (npm run admin).
create table admins (
  user_id text primary key references users (id) on delete cascade,
  granted_at timestamptz not null default now()
);

-- A member is 'active', 'suspended' by a moderator, or (later) 'deleted'. Every list that shows
-- members or what they made keeps only active ones: `not in` this small set (a hashed subplan,
-- so the plans of the queries it joins keep their shape).
create index users_inactive_idx on users (id) where account_status <> 'active';

-- Items hidden by a moderator stay in their tables (a restore brings them back as they were).
alter table book_listings add column hidden_at timestamptz;
alter table chat_messages add column removed_at timestamptz;

-- Reports: by a member (reporter_id) or by a visitor (name and e-mail, illegal content only).
create table reports (
  id uuid primary key default gen_random_uuid(),
  kind text not null,
  item_id text not null,
  reporter_id text references users (id) on delete set null,
  reporter_name text,
  reporter_email citext,
  reason text not null check (reason in ('spam', 'scam', 'offensive', 'illegal', 'other')),
  text text check (char_length(text) <= 1000),
  status text not null default 'open' check (status in ('open', 'dismissed', 'actioned')),
  created_at timestamptz not null default now(),
  resolved_at timestamptz,
  check (reporter_id is not null or (reporter_name is not null and reporter_email is not null))
);
-- One open report per reporter and item, even under races.
create unique index reports_open_member_idx on reports (kind, item_id, reporter_id)
  where status = 'open' and reporter_id is not null;
create unique index reports_open_visitor_idx on reports (kind, item_id, reporter_email)
  where status = 'open' and reporter_id is null;
-- The queue: open reports grouped by item, oldest item first.
create index reports_open_idx on reports (kind, item_id, created_at) where status = 'open';

-- The audit log of every moderation action. Nobody edits it: UPDATE, DELETE and TRUNCATE raise.
-- Ids are kept as text without foreign keys, so deleting a member never rewrites the log.
create table moderation_log (
  id bigint generated always as identity primary key,
  actor_id text,
  actor_email text,
  action text not null check (action in
    ('dismiss', 'hide', 'restore', 'suspend', 'unsuspend', 'grant_admin', 'revoke_admin')),
  kind text,
  item_id text,
  target_user_id text,
  reason text not null check (char_length(reason) between 1 and 2000),
  created_at timestamptz not null default now()
);
create index moderation_log_newest_idx on moderation_log (created_at desc, id desc);

create function moderation_log_is_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'moderation_log is append-only (% refused)', tg_op
    using errcode = 'insufficient_privilege';
end
$$;
create trigger moderation_log_no_update before update or delete on moderation_log
  for each row execute function moderation_log_is_append_only();
create trigger moderation_log_no_truncate before truncate on moderation_log
  for each statement execute function moderation_log_is_append_only();

-- Reviews after a completed transaction: each party reviews the other once.
create table reviews (
  id uuid primary key default gen_random_uuid(),
  transaction_id uuid not null references transactions (id) on delete cascade,
  author_id text not null references users (id) on delete cascade,
  subject_id text not null references users (id) on delete cascade,
  rating smallint not null check (rating between 1 and 5),
  text text not null default '' check (char_length(text) <= 1000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (transaction_id, author_id),
  check (author_id <> subject_id)
);
-- A member's reviews, newest first (the profile's pages and its average).
create index reviews_subject_idx on reviews (subject_id, created_at desc, id desc) include (rating);
create index reviews_author_idx on reviews (author_id);

-- The library's totals (listing_counts, migration 0010) count only what readers see: listings
-- not hidden whose seller is active. A listing counts when it is not hidden and its seller is
-- active; a seller's suspension or return moves all their listings out of or into the counts.
create function listing_counted(hidden timestamptz, seller text) returns boolean
  language sql stable as $$
    select hidden is null
      and not exists (select 1 from users u where u.id = seller and u.account_status <> 'active')
  $$;

create or replace function count_listings() returns trigger language plpgsql as $$
declare
  was listing_counts;
  now_is listing_counts;
begin
  if tg_op <> 'INSERT' and listing_counted(old.hidden_at, old.user_id) then
    was := row(old.status, old.genre, old.listing_type, listing_count_price_floor(old.price), -1);
  end if;
  if tg_op <> 'DELETE' and listing_counted(new.hidden_at, new.user_id) then
    now_is := row(new.status, new.genre, new.listing_type, listing_count_price_floor(new.price), 1);
  end if;
  if tg_op = 'UPDATE' and (was.status, was.genre, was.listing_type, was.price_floor)
      is not distinct from (now_is.status, now_is.genre, now_is.listing_type, now_is.price_floor) then
    return null;
  end if;
  -- Keys locked in one order whatever the change, so two updates cannot deadlock on them.
  insert into listing_counts as c (status, genre, listing_type, price_floor, n)
    select k.status, k.genre, k.listing_type, f.price_floor, sum(k.n)
    from (select (was).* union all select (now_is).*) as k,
      lateral (values (k.price_floor), (-2)) as f(price_floor)
    where k.status is not null
    group by 1, 2, 3, 4
    having sum(k.n) <> 0
    order by 1, 2, 3, 4
  on conflict (status, genre, listing_type, price_floor) do update set n = c.n + excluded.n;
  return null;
end
$$;

drop trigger book_listings_count on book_listings;
create trigger book_listings_count
  after insert or delete or update of status, genre, listing_type, price, hidden_at, user_id
  on book_listings
  for each row execute function count_listings();

-- A member leaves or comes back: their visible listings leave or join the counts.
create function count_member_listings() returns trigger language plpgsql as $$
declare
  sign integer;
begin
  if (old.account_status = 'active') = (new.account_status = 'active') then
    return null;
  end if;
  sign := case when new.account_status = 'active' then 1 else -1 end;
  insert into listing_counts as c (status, genre, listing_type, price_floor, n)
    select l.status, l.genre, l.listing_type, f.price_floor, sign * count(*)
    from book_listings l,
      lateral (values (listing_count_price_floor(l.price)), (-2)) as f(price_floor)
    where l.user_id = new.id and l.hidden_at is null
    group by 1, 2, 3, 4
    order by 1, 2, 3, 4
  on conflict (status, genre, listing_type, price_floor) do update set n = c.n + excluded.n;
  return null;
end
$$;

create trigger users_count_listings
  after update of account_status on users
  for each row execute function count_member_listings();

create or replace function refresh_listing_counts() returns void language sql as $$
  delete from listing_counts;
  insert into listing_counts (status, genre, listing_type, price_floor, n)
    select status, genre, listing_type, coalesce(listing_count_price_floor(price), -2), count(*)
    from book_listings
    where listing_counted(hidden_at, user_id)
    group by grouping sets (
      (status, genre, listing_type, listing_count_price_floor(price)),
      (status, genre, listing_type));
$$;

select refresh_listing_counts();
