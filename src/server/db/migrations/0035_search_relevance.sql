-- Issue 25: search that understands Italian and English, ranks by relevance, counts facets.

-- Every listing's words three ways: as written ('simple', for prefixes: "harr" finds "harry"),
-- and stemmed in Italian and in English ("libri" finds "libro", "running" finds "run"), accents
-- ignored. Weights say where a word is: A title, B author, C description (relevance ranks title
-- over author over description). Authors' names are not stemmed.
drop index book_listings_search_vector_idx;
alter table book_listings drop column search_vector;
alter table book_listings add column search_vector tsvector generated always as (
  setweight(to_tsvector('simple', immutable_unaccent(title)), 'A') ||
  setweight(to_tsvector('italian', immutable_unaccent(title)), 'A') ||
  setweight(to_tsvector('english', immutable_unaccent(title)), 'A') ||
  setweight(to_tsvector('simple', immutable_unaccent(author)), 'B') ||
  setweight(to_tsvector('simple', immutable_unaccent(coalesce(description, ''))), 'C') ||
  setweight(to_tsvector('italian', immutable_unaccent(coalesce(description, ''))), 'C') ||
  setweight(to_tsvector('english', immutable_unaccent(coalesce(description, ''))), 'C')
) stored;
create index book_listings_search_vector_idx on book_listings using gin (search_vector);

-- Typo tolerance per word: the nearest known words by trigram distance (a KNN walk of this
-- index), of which the closest within one or two edits (counted by the server) replaces the
-- unknown word.
create index search_words_trgm_gist_idx on search_words using gist (word gist_trgm_ops);

-- The counts (migration 0010, 0016) gain the listing's condition: the condition filter's totals
-- and the facet counts of searches without words come from this table too.
drop table listing_counts;
create table listing_counts (
  status text not null,
  genre text not null,
  listing_type text not null,
  condition text not null,
  price_floor integer not null,
  n bigint not null,
  primary key (status, genre, listing_type, condition, price_floor)
);
create index listing_counts_price_idx on listing_counts (price_floor, status);

create or replace function count_listings() returns trigger language plpgsql as $$
declare
  was listing_counts;
  now_is listing_counts;
begin
  if tg_op <> 'INSERT' and listing_counted(old.hidden_at, old.user_id) then
    was := row(old.status, old.genre, old.listing_type, old.condition,
               listing_count_price_floor(old.price), -1);
  end if;
  if tg_op <> 'DELETE' and listing_counted(new.hidden_at, new.user_id) then
    now_is := row(new.status, new.genre, new.listing_type, new.condition,
                  listing_count_price_floor(new.price), 1);
  end if;
  if tg_op = 'UPDATE'
      and (was.status, was.genre, was.listing_type, was.condition, was.price_floor)
      is not distinct from
        (now_is.status, now_is.genre, now_is.listing_type, now_is.condition, now_is.price_floor) then
    return null;
  end if;
  -- Keys locked in one order whatever the change, so two updates cannot deadlock on them.
  insert into listing_counts as c (status, genre, listing_type, condition, price_floor, n)
    select k.status, k.genre, k.listing_type, k.condition, f.price_floor, sum(k.n)
    from (select (was).* union all select (now_is).*) as k,
      lateral (values (k.price_floor), (-2)) as f(price_floor)
    where k.status is not null
    group by 1, 2, 3, 4, 5
    having sum(k.n) <> 0
    order by 1, 2, 3, 4, 5
  on conflict (status, genre, listing_type, condition, price_floor)
    do update set n = c.n + excluded.n;
  return null;
end
$$;

drop trigger book_listings_count on book_listings;
create trigger book_listings_count
  after insert or delete or update of status, genre, listing_type, condition, price, hidden_at, user_id
  on book_listings
  for each row execute function count_listings();

create or replace function count_member_listings() returns trigger language plpgsql as $$
declare
  sign integer;
begin
  if (old.account_status = 'active') = (new.account_status = 'active') then
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

create or replace function refresh_listing_counts() returns void language sql as $$
  delete from listing_counts;
  insert into listing_counts (status, genre, listing_type, condition, price_floor, n)
    select status, genre, listing_type, condition,
      coalesce(listing_count_price_floor(price), -2), count(*)
    from book_listings
    where listing_counted(hidden_at, user_id)
    group by grouping sets (
      (status, genre, listing_type, condition, listing_count_price_floor(price)),
      (status, genre, listing_type, condition));
$$;

select refresh_listing_counts();
