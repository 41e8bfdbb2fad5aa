-- Issue 35: search that knows books. Works (one book across its editions and languages), and
-- every listing's search words with its work's titles and its genre.

-- A work: every edition of one book, in every language. Its titles, one per language (ISO 639
-- code; 'und' when the catalogue does not say), its author as the work shows it, its first year.
create table works (
  id uuid primary key default gen_random_uuid(),
  author text not null default '' check (length(author) <= 300),
  author_norm text generated always as (lower(immutable_unaccent(author))) stored,
  first_year integer check (first_year between -3000 and 2100),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- The sitemap's pages of works, in (created_at, id) order.
create index works_created_idx on works (created_at, id);
create table work_titles (
  work_id uuid not null references works(id) on delete cascade,
  language text not null check (language ~ '^[a-z]{2,3}$'),
  title text not null check (length(title) between 1 and 300),
  title_norm text generated always as (lower(immutable_unaccent(title))) stored,
  primary key (work_id, language)
);
-- A new edition finds its work by a title in any language and the same author.
create index work_titles_norm_idx on work_titles (title_norm);

-- The catalogue's book (an edition) belongs to a work; a listing to its book's work, unless an
-- admin put it in another. work_titles: the work's titles other than the listing's own, one a
-- line, for the listing's search words (kept by the triggers below).
alter table books add column work_id uuid references works(id) on delete set null;
create index books_work_idx on books (work_id);
alter table book_listings add column work_id uuid references works(id) on delete set null;
alter table book_listings add column work_titles text;
-- The work page's copies and a listing's "other copies": the available listings of one work.
create index book_listings_available_work_idx
  on book_listings (work_id, created_at desc, id desc) where status = 'available';

-- A language's ISO 639 code from a catalogue code ('it', 'en-GB') or the name the sell form
-- stores ('Italiano', 'English'); null when neither.
create function language_code(language text) returns text language sql immutable as $$
  select case
    when language ~ '^[A-Za-z]{2,3}([-_].*)?$' then lower(substring(language from '^([A-Za-z]{2,3})'))
    else case lower(immutable_unaccent(trim(coalesce(language, ''))))
      when 'italiano' then 'it' when 'italian' then 'it'
      when 'english' then 'en' when 'inglese' then 'en'
      when 'francais' then 'fr' when 'french' then 'fr' when 'francese' then 'fr'
      when 'deutsch' then 'de' when 'german' then 'de' when 'tedesco' then 'de'
      when 'espanol' then 'es' when 'spanish' then 'es' when 'spagnolo' then 'es'
      end
    end
$$;

-- The work of a catalogue book: the work with this title in any language and the same author,
-- else a new one with the book's title in the book's language (else the listing's) and its year.
create function work_of_book(book books, listing_language text) returns uuid language plpgsql as $$
declare
  found uuid;
  lang text := coalesce(language_code(book.language), language_code(listing_language), 'und');
begin
  select t.work_id into found
  from work_titles t join works w on w.id = t.work_id
  where t.title_norm = lower(immutable_unaccent(book.title))
    and w.author_norm = lower(immutable_unaccent(book.author))
  order by w.created_at, w.id
  limit 1;
  if found is not null then
    return found;
  end if;
  insert into works (author, first_year)
  values (book.author,
          nullif(substring(coalesce(book.published_date, '') from '^(-?\d{1,4})'), '')::int)
  returning id into found;
  insert into work_titles (work_id, language, title) values (found, lang, book.title);
  return found;
end
$$;

-- SQL: the titles of work `work` other than `own`, one a line (null when none).
create function work_titles_besides(work uuid, own text) returns text language sql stable as $$
  select string_agg(t.title, E'\n' order by t.language)
  from work_titles t
  where t.work_id = work and t.title_norm <> lower(immutable_unaccent(own))
$$;

-- A listing takes its book's work when made (the book gets one on its first listing) or given
-- another book; an admin may set another work. Its work's other titles follow.
create function listing_work() returns trigger language plpgsql as $$
declare
  book books;
  found uuid;
begin
  if new.work_id is null
     or (tg_op = 'UPDATE' and new.book_id is distinct from old.book_id
         and new.work_id is not distinct from old.work_id) then
    select * into book from books where id = new.book_id;
    found := book.work_id;
    if found is null and book.id is not null then
      found := work_of_book(book, new.language);
      -- Two first listings of one book at once: the first work stored wins, the other goes.
      update books set work_id = coalesce(work_id, found) where id = book.id
        returning work_id into new.work_id;
      if new.work_id <> found then
        delete from works where id = found;
      end if;
    else
      new.work_id := found;
    end if;
  end if;
  new.work_titles := work_titles_besides(new.work_id, new.title);
  return new;
end
$$;

create trigger book_listings_work
  before insert or update of book_id, work_id, title on book_listings
  for each row execute function listing_work();

-- A work's titles changed (an admin): its listings' search words follow.
create function work_titles_changed() returns trigger language plpgsql as $$
begin
  update book_listings l set work_titles = work_titles_besides(l.work_id, l.title)
  where l.work_id = coalesce(new.work_id, old.work_id);
  return null;
end
$$;

create trigger work_titles_listings
  after insert or update or delete on work_titles
  for each row execute function work_titles_changed();

-- A catalogue book moved to another work (an admin): the listings that followed it move too.
create function book_work_changed() returns trigger language plpgsql as $$
begin
  update book_listings set work_id = new.work_id
  where book_id = new.id and work_id is not distinct from old.work_id;
  return null;
end
$$;

create trigger books_work_listings
  after update of work_id on books
  for each row when (old.work_id is distinct from new.work_id)
  execute function book_work_changed();

-- The typo dictionary (0004) knows the words of the works' titles too.
create or replace function index_search_words() returns trigger language plpgsql as $$
begin
  insert into search_words (word)
    select w
    from unnest(tsvector_to_array(to_tsvector('simple', immutable_unaccent(
      new.title || ' ' || new.author || ' ' || coalesce(new.work_titles, ''))))) as w
    where length(w) >= 3
  on conflict do nothing;
  return null;
end
$$;
drop trigger book_listings_search_words on book_listings;
create trigger book_listings_search_words
  after insert or update of title, author, work_titles on book_listings
  for each row execute function index_search_words();

-- Every listed book gets its work, and its listings with it (the triggers above).
do $$
declare
  b books;
begin
  for b in select * from books where work_id is null
             and exists (select 1 from book_listings l where l.book_id = books.id)
           order by created_at, id loop
    update books set work_id = work_of_book(b, (select l.language from book_listings l
                                                where l.book_id = b.id limit 1))
    where id = b.id;
  end loop;
end
$$;
update book_listings l set work_id = b.work_id from books b
where b.id = l.book_id and l.work_id is null and b.work_id is not null;

-- Every listing's search words take its work's other titles and its genre in 0055, which rebuilds
-- the generated column once with its author's other spellings as well.
