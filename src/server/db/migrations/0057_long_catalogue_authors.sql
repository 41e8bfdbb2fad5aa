-- A catalogue book whose author list is longer than a work's 300 characters (an anthology, a
-- conference's proceedings) could not be listed: its first listing made its work with the whole
-- list, and the works' check refused it (found by the million-listing seed, decision 0096). The
-- work keeps the first 300 characters of the author and of the title, and finds the work by them.
create or replace function work_of_book(book books, listing_language text) returns uuid language plpgsql as $$
declare
  found uuid;
  lang text := coalesce(language_code(book.language), language_code(listing_language), 'und');
  work_author text := left(book.author, 300);
  work_title text := left(book.title, 300);
begin
  select t.work_id into found
  from work_titles t join works w on w.id = t.work_id
  where t.title_norm = lower(immutable_unaccent(work_title))
    and w.author_norm = lower(immutable_unaccent(work_author))
  order by w.created_at, w.id
  limit 1;
  if found is not null then
    return found;
  end if;
  insert into works (author, first_year)
  values (work_author,
          nullif(substring(coalesce(book.published_date, '') from '^(-?\d{1,4})'), '')::int)
  returning id into found;
  insert into work_titles (work_id, language, title) values (found, lang, work_title);
  return found;
end
$$;
