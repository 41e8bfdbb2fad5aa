-- Watched listings and holiday mode (issue 22, items 4 and 6; docs/watching.md, decision 0069).

-- A member watches a listing: told when its price drops, when it is reserved, sold or available
-- again. Gone with the listing or the member.
create table listing_watches (
  user_id text not null references users(id) on delete cascade,
  listing_id uuid not null references book_listings(id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (user_id, listing_id)
);
-- The watchers of a listing (its count, who to tell), and a member's page newest first.
create index listing_watches_listing_idx on listing_watches (listing_id);
create index listing_watches_user_idx on listing_watches (user_id, created_at desc, listing_id desc);

-- A seller on holiday: the row exists while they are away. Their listings leave the library and
-- the shelves; the holiday job deletes the row once away_until has passed (the app's clock).
create table member_holidays (
  user_id text primary key references users(id) on delete cascade,
  id uuid not null default gen_random_uuid() unique,
  away_until timestamptz not null,
  auto_reply text,
  created_at timestamptz not null default now()
);
create index member_holidays_until_idx on member_holidays (away_until);

-- The automatic reply is sent once per conversation and holiday.
create table holiday_replies (
  holiday_id uuid not null references member_holidays(id) on delete cascade,
  room_id uuid not null references chat_rooms(id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (holiday_id, room_id)
);

-- The library's totals (listing_counts, 0010, 0016, 0035 with the condition) count only what the library lists: a seller
-- on holiday leaves them too.
create or replace function listing_counted(hidden timestamptz, seller text) returns boolean
  language sql stable as $$
    select hidden is null
      and not exists (select 1 from users u where u.id = seller and u.account_status <> 'active')
      and not exists (select 1 from member_holidays h where h.user_id = seller)
  $$;

-- A member leaves or comes back: their visible listings leave or join the counts (unless away).
create or replace function count_member_listings() returns trigger language plpgsql as $$
declare
  sign integer;
begin
  if (old.account_status = 'active') = (new.account_status = 'active') then
    return null;
  end if;
  if exists (select 1 from member_holidays h where h.user_id = new.id) then
    return null;
  end if;
  sign := case when new.account_status = 'active' then 1 else -1 end;
  insert into listing_counts as c (status, genre, listing_type, condition, price_floor, n)
    select l.status, l.genre, l.listing_type, l.condition, f.price_floor, sign * count(*)
    from book_listings l,
      lateral (values (listing_count_price_floor(l.price)), (-2)) as f(price_floor)
    where l.user_id = new.id and l.hidden_at is null
    group by 1, 2, 3, 4, 5
    order by 1, 2, 3, 4, 5
  on conflict (status, genre, listing_type, condition, price_floor)
    do update set n = c.n + excluded.n;
  return null;
end
$$;

-- A holiday starts or ends: the active seller's visible listings leave or join the counts.
create function count_holiday_listings() returns trigger language plpgsql as $$
declare
  sign integer;
  seller text;
begin
  seller := case when tg_op = 'INSERT' then new.user_id else old.user_id end;
  if not exists (select 1 from users u where u.id = seller and u.account_status = 'active') then
    return null;
  end if;
  sign := case when tg_op = 'INSERT' then -1 else 1 end;
  insert into listing_counts as c (status, genre, listing_type, condition, price_floor, n)
    select l.status, l.genre, l.listing_type, l.condition, f.price_floor, sign * count(*)
    from book_listings l,
      lateral (values (listing_count_price_floor(l.price)), (-2)) as f(price_floor)
    where l.user_id = seller and l.hidden_at is null
    group by 1, 2, 3, 4, 5
    order by 1, 2, 3, 4, 5
  on conflict (status, genre, listing_type, condition, price_floor)
    do update set n = c.n + excluded.n;
  return null;
end
$$;

create trigger member_holidays_count_listings
  after insert or delete on member_holidays
  for each row execute function count_holiday_listings();
