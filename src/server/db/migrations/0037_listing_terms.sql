-- Suggestions as you type (issue 25, GET /api/listings/suggest): the distinct titles and authors
-- of every listing (listing_terms), and where each word of them starts (listing_term_starts:
-- the term's unaccented lower-case text from that word on). "What was typed starts a word of
-- the title" is then "a start begins with what was typed": a range of one btree index, read in
-- order and only as far as needed, whatever the number of listings (a trigram or full-text
-- search reads every match of a short prefix). Each candidate is then confirmed on the listings
-- (available, visible, not behind a block) through the two partial indexes at the end.
-- Like search_words (0004) both tables only grow: a term whose listings are all gone is simply
-- never confirmed.
create table listing_terms (
  id integer generated always as identity primary key,
  kind text not null check (kind in ('title', 'author')),
  text text not null,
  norm text not null,
  unique (kind, text)
);

create table listing_term_starts (
  term_id integer not null references listing_terms (id) on delete cascade,
  start text not null,
  -- the first word: the whole title or author begins with what was typed
  at_start boolean not null
);
create index listing_term_starts_idx on listing_term_starts (start collate "C");
create index listing_term_starts_first_idx on listing_term_starts (start collate "C") where at_start;
create index listing_term_starts_term_idx on listing_term_starts (term_id);

-- The starts of a term's words: every position where a letter or digit follows the beginning
-- or a character that is neither (the rule the suggestions' matching states).
create function listing_term_word_starts(norm text) returns table (start text, at_start boolean)
language sql immutable as $$
  select substr(norm, i), i = 1
  from generate_series(1, length(norm)) as i
  where substr(norm, i, 1) ~ '[[:alnum:]]'
    and (i = 1 or substr(norm, i - 1, 1) !~ '[[:alnum:]]')
$$;

create function add_listing_term(term_kind text, term_text text) returns void language plpgsql as $$
declare
  term integer;
  term_norm text := lower(immutable_unaccent(term_text));
begin
  insert into listing_terms (kind, text, norm) values (term_kind, term_text, term_norm)
  on conflict do nothing
  returning id into term;
  if term is not null then
    insert into listing_term_starts (term_id, start, at_start)
      select term, s.start, s.at_start from listing_term_word_starts(term_norm) as s;
  end if;
end
$$;

create function index_listing_terms() returns trigger language plpgsql as $$
begin
  perform add_listing_term('title', new.title);
  perform add_listing_term('author', new.author);
  return null;
end
$$;

create trigger book_listings_listing_terms
  after insert or update of title, author on book_listings
  for each row execute function index_listing_terms();

-- Fills both tables from the listings there are (the migration below; a bulk load without
-- triggers calls it too).
create function refresh_listing_terms() returns void language sql as $$
  select add_listing_term(t.kind, t.text)
  from (select distinct 'title' as kind, title as text from book_listings
        union
        select distinct 'author', author from book_listings) as t
$$;
select refresh_listing_terms();

-- "Does this title (author) have an available listing, and how many?": a few entries of an
-- index that holds the seller too (the visibility rule's other half), read without the table.
create index book_listings_available_title_idx on book_listings (title) include (user_id)
  where status = 'available' and hidden_at is null;
create index book_listings_available_author_idx on book_listings (author) include (user_id)
  where status = 'available' and hidden_at is null;
