-- The words of every listing's title and author, for typo correction: an unknown word of a
-- search is replaced by its most similar known word (trigram index, about a millisecond), and
-- the ordinary full-text search runs with it, instead of a trigram scan over every title.
create table search_words (word text primary key);
create index search_words_trgm_idx on search_words using gin (word gin_trgm_ops);
-- "does a known word start with this one?" as a byte-order range scan
create index search_words_prefix_idx on search_words (word collate "C");

create function index_search_words() returns trigger language plpgsql as $$
begin
  insert into search_words (word)
    select w
    from unnest(tsvector_to_array(to_tsvector('simple', immutable_unaccent(new.title || ' ' || new.author)))) as w
    where length(w) >= 3
  on conflict do nothing;
  return null;
end
$$;

create trigger book_listings_search_words
  after insert or update of title, author on book_listings
  for each row execute function index_search_words();

insert into search_words (word)
  select distinct w
  from book_listings,
    unnest(tsvector_to_array(to_tsvector('simple', immutable_unaccent(title || ' ' || author)))) as w
  where length(w) >= 3
on conflict do nothing;
