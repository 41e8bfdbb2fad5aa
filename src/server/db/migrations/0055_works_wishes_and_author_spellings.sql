-- Issue 35, the rest of works (decision 0095): a wish for a work, the admins' corrections of
-- works in the moderation log, and the spellings of an author's name across languages.

-- A wishlist item is a catalogue book (book_id: the same book, ISBN or title and author, as
-- since 0012) or a work (work_id: any copy of any of its editions, in any language). Never both.
alter table wishlist_items alter column book_id drop not null;
alter table wishlist_items add column work_id uuid references works (id) on delete cascade;
alter table wishlist_items add constraint wishlist_items_book_or_work
  check ((book_id is null) <> (work_id is null));
-- One wish per work and list; a listed copy finds its work's wishers on this index.
create unique index wishlist_items_work_idx on wishlist_items (wishlist_id, work_id)
  where work_id is not null;
create index wishlist_items_work_wishers_idx on wishlist_items (work_id)
  where work_id is not null;

-- The admins' corrections of works are moderation actions, logged as the others are.
alter table moderation_log drop constraint moderation_log_action_check;
alter table moderation_log add constraint moderation_log_action_check check (action in
  ('dismiss', 'hide', 'restore', 'suspend', 'unsuspend', 'grant_admin', 'revoke_admin',
   'reject', 'pin', 'unpin', 'edit_work', 'move_book', 'merge_works'));

-- The admins' search of works: words of a title in any language, or of the author.
create index works_author_trgm_idx on works using gin (author_norm gin_trgm_ops);
create index work_titles_trgm_idx on work_titles using gin (title_norm gin_trgm_ops);

-- The spellings of one author's name in several languages' transliterations: each word of a
-- name (lower case, unaccented, letters and digits) and the key of its group. "Tolstoj",
-- "Tolstoy" and "Tolstoi" are one group: a listing by any of them is found by every other.
create table author_spellings (
  spelling text primary key check (spelling ~ '^[a-z0-9]{2,40}$'),
  author_key text not null check (author_key ~ '^[a-z0-9]{2,40}$')
);
create index author_spellings_key_idx on author_spellings (author_key);

-- SQL: the words of a name as the spellings and the library's exact tiers compare them.
create function name_words(name text) returns text[] language sql immutable parallel safe as $$
  select string_to_array(trim(regexp_replace(lower(immutable_unaccent(coalesce(name, ''))),
                                             '[^[:alnum:]]+', ' ', 'g')), ' ')
$$;

-- The other spellings of the words of an author's name, one space between (null when none).
create function author_variants_of(author text) returns text language sql stable as $$
  select string_agg(distinct o.spelling, ' ')
  from author_spellings s join author_spellings o on o.author_key = s.author_key
  where s.spelling = any(name_words(author)) and o.spelling <> all(name_words(author))
$$;

-- A listing's author's other spellings, for its search words and relevance's author tier.
alter table book_listings add column author_variants text;

create function listing_author_variants() returns trigger language plpgsql as $$
begin
  new.author_variants := author_variants_of(new.author);
  return new;
end
$$;
create trigger book_listings_author_variants
  before insert or update of author on book_listings
  for each row execute function listing_author_variants();

-- The spellings changed: the listings by an author of the group follow (a scan of the authors'
-- trigram index would not help here; the table changes by migration, rarely).
create function author_spellings_changed() returns trigger language plpgsql as $$
begin
  update book_listings l set author_variants = author_variants_of(l.author)
  where l.author_variants is distinct from author_variants_of(l.author);
  return null;
end
$$;
create trigger author_spellings_listings
  after insert or update or delete on author_spellings
  for each statement execute function author_spellings_changed();

-- Well-known names written differently in Italian, English, French and German editions (the
-- Cyrillic ones first). First names only where they are no other common name (not Lev/Leo).
insert into author_spellings (spelling, author_key) values
  ('tolstoj', 'tolstoj'), ('tolstoy', 'tolstoj'), ('tolstoi', 'tolstoj'),
  ('dostoevskij', 'dostoevskij'), ('dostoevsky', 'dostoevskij'), ('dostoyevsky', 'dostoevskij'),
  ('dostoevski', 'dostoevskij'), ('dostoievski', 'dostoevskij'), ('dostojevskij', 'dostoevskij'),
  ('dostojewski', 'dostoevskij'), ('dostoievsky', 'dostoevskij'),
  ('cechov', 'cechov'), ('chekhov', 'cechov'), ('tchekhov', 'cechov'), ('tschechow', 'cechov'),
  ('cekhov', 'cechov'), ('chekov', 'cechov'),
  ('puskin', 'puskin'), ('pushkin', 'puskin'), ('pouchkine', 'puskin'), ('puschkin', 'puskin'),
  ('turgenev', 'turgenev'), ('turgheniev', 'turgenev'), ('tourgueniev', 'turgenev'),
  ('turgenjew', 'turgenev'),
  ('bulgakov', 'bulgakov'), ('boulgakov', 'bulgakov'), ('bulgakow', 'bulgakov'),
  ('solzenicyn', 'solzenicyn'), ('solzhenitsyn', 'solzenicyn'), ('soljenitsyne', 'solzenicyn'),
  ('solschenizyn', 'solzenicyn'),
  ('majakovskij', 'majakovskij'), ('mayakovsky', 'majakovskij'), ('maiakovski', 'majakovskij'),
  ('achmatova', 'achmatova'), ('akhmatova', 'achmatova'),
  ('cvetaeva', 'cvetaeva'), ('tsvetaeva', 'cvetaeva'), ('zwetajewa', 'cvetaeva'),
  ('zamjatin', 'zamjatin'), ('zamyatin', 'zamjatin'),
  ('fedor', 'fedor'), ('fyodor', 'fedor'), ('fiodor', 'fedor'), ('fjodor', 'fedor'),
  ('michail', 'michail'), ('mikhail', 'michail'),
  ('confucio', 'confucio'), ('confucius', 'confucio'),
  ('mahfuz', 'mahfuz'), ('mahfouz', 'mahfuz')
on conflict do nothing;

-- Every listing's search words: as 0035, with its work's other titles (0053) as title words
-- (weight A: "war and peace" finds Guerra e pace), its author's other spellings as author words
-- (weight B: "tolstoy" finds Lev Tolstoj's books as "tolstoj" does), and its genre as one lexeme,
-- weight D, that no typed word can spell nor begin ('#scifi', '#mystery'...): a search's genre
-- words ("fantascienza", "gialli", "science fiction") match it as well as the words themselves
-- (library/search/genres.ts, decision 0090).
drop index book_listings_search_vector_idx;
alter table book_listings drop column search_vector;
alter table book_listings add column search_vector tsvector generated always as (
  setweight(to_tsvector('simple', immutable_unaccent(title)), 'A') ||
  setweight(to_tsvector('italian', immutable_unaccent(title)), 'A') ||
  setweight(to_tsvector('english', immutable_unaccent(title)), 'A') ||
  setweight(to_tsvector('simple', immutable_unaccent(coalesce(work_titles, ''))), 'A') ||
  setweight(to_tsvector('italian', immutable_unaccent(coalesce(work_titles, ''))), 'A') ||
  setweight(to_tsvector('english', immutable_unaccent(coalesce(work_titles, ''))), 'A') ||
  setweight(to_tsvector('simple', immutable_unaccent(author)), 'B') ||
  setweight(to_tsvector('simple', coalesce(author_variants, '')), 'B') ||
  setweight(to_tsvector('simple', immutable_unaccent(coalesce(description, ''))), 'C') ||
  setweight(to_tsvector('italian', immutable_unaccent(coalesce(description, ''))), 'C') ||
  setweight(to_tsvector('english', immutable_unaccent(coalesce(description, ''))), 'C') ||
  setweight(array_to_tsvector(array['#' || lower(genre)]), 'D')
) stored;
create index book_listings_search_vector_idx on book_listings using gin (search_vector);

-- The typo dictionary (0004) knows the other spellings too.
create or replace function index_search_words() returns trigger language plpgsql as $$
begin
  insert into search_words (word)
    select w
    from unnest(tsvector_to_array(to_tsvector('simple', immutable_unaccent(
      new.title || ' ' || new.author || ' ' || coalesce(new.work_titles, '') || ' ' ||
      coalesce(new.author_variants, ''))))) as w
    where length(w) >= 3
  on conflict do nothing;
  return null;
end
$$;
drop trigger book_listings_search_words on book_listings;
create trigger book_listings_search_words
  after insert or update of title, author, work_titles, author_variants on book_listings
  for each row execute function index_search_words();
