-- Listings counted per status, genre and type, in all (price_floor -2) and per whole euro of
-- price (-1: no price), kept by a trigger, so the library's total for filters without words
-- (the broadest, up to every listing) is a sum over a few hundred rows instead of a count over
-- the listings themselves. Ranges that do not end on whole euros count only their partial
-- euros on the listings' price indexes.
create table listing_counts (
  status text not null,
  genre text not null,
  listing_type text not null,
  price_floor integer not null,
  n bigint not null,
  primary key (status, genre, listing_type, price_floor)
);
create index listing_counts_price_idx on listing_counts (price_floor, status);

create function listing_count_price_floor(price numeric) returns integer
  language sql immutable as $$ select coalesce(floor(price)::integer, -1) $$;

create function count_listings() returns trigger language plpgsql as $$
declare
  was listing_counts;
  now_is listing_counts;
begin
  if tg_op <> 'INSERT' then
    was := row(old.status, old.genre, old.listing_type, listing_count_price_floor(old.price), -1);
  end if;
  if tg_op <> 'DELETE' then
    now_is := row(new.status, new.genre, new.listing_type, listing_count_price_floor(new.price), 1);
  end if;
  if tg_op = 'UPDATE' and (was.status, was.genre, was.listing_type, was.price_floor)
      = (now_is.status, now_is.genre, now_is.listing_type, now_is.price_floor) then
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

create trigger book_listings_count
  after insert or delete or update of status, genre, listing_type, price on book_listings
  for each row execute function count_listings();

-- Recounts from the listings (here, and after a bulk load that bypassed the trigger).
create function refresh_listing_counts() returns void language sql as $$
  delete from listing_counts;
  insert into listing_counts (status, genre, listing_type, price_floor, n)
    select status, genre, listing_type, coalesce(listing_count_price_floor(price), -2), count(*)
    from book_listings
    group by grouping sets (
      (status, genre, listing_type, listing_count_price_floor(price)),
      (status, genre, listing_type));
$$;

select refresh_listing_counts();

-- The library with every status, newest first (the other orders start with the status).
create index book_listings_newest_idx on book_listings (created_at desc, id desc);
-- A genre's listings, dearest first (the ascending order is book_listings_genre_price_idx).
create index book_listings_genre_price_desc_idx
  on book_listings (genre, status, price desc nulls last, created_at desc, id desc);
