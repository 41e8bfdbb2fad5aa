-- Suggestions as you type (issue 25, GET /api/listings/suggest): the distinct titles and authors
-- of every listing, each with its unaccented lower-case form. What was typed is matched against
-- these few rows (one per book and per author, about a tenth of the listings) on a trigram index,
-- never against every listing; each candidate is then confirmed on the listings themselves
-- (available, visible, not behind a block) through the two partial indexes below.
-- Like search_words (0004) the table only grows: a term whose listings are all gone is simply
-- never confirmed.
create table listing_terms (
  kind text not null check (kind in ('title', 'author')),
  text text not null,
  norm text not null,
  primary key (kind, text)
);
create index listing_terms_norm_trgm_idx on listing_terms using gin (norm gin_trgm_ops);

create function index_listing_terms() returns trigger language plpgsql as $$
begin
  insert into listing_terms (kind, text, norm)
    values ('title', new.title, lower(immutable_unaccent(new.title))),
           ('author', new.author, lower(immutable_unaccent(new.author)))
  on conflict do nothing;
  return null;
end
$$;

create trigger book_listings_listing_terms
  after insert or update of title, author on book_listings
  for each row execute function index_listing_terms();

insert into listing_terms (kind, text, norm)
  select distinct 'title', title, lower(immutable_unaccent(title)) from book_listings
  union
  select distinct 'author', author, lower(immutable_unaccent(author)) from book_listings
on conflict do nothing;

-- "Does this title (author) have an available listing, and how many?": a few index entries each.
create index book_listings_available_title_idx on book_listings (title) where status = 'available';
create index book_listings_available_author_idx on book_listings (author) where status = 'available';
