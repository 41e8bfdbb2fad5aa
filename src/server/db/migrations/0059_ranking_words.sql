-- Issue 35: the words the library's relevance compares, kept in each listing (decision 0098).
-- Its exact tiers (library/search/words.ts) split the author's name and the titles into words
-- with regexp_replace for every match it ranked, the author's three times: 42.5 µs per ranked
-- match at a million listings, against 9.1 µs for the score before issue 35. These columns are
-- those words, worked out once when the listing is written, as search_vector is.

-- SQL: the tokens of a text (already lower case and unaccented) as relevance compares them: each run of
-- letters and digits, and a '\n' token for each line break ("a b\nc" gives {a,b,"\n",c}). Relevance
-- tests "every word is one of them" (the '\n' tokens are never a word) and "the phrase is in them"
-- on ' ' || array_to_string(tokens, ' ') || ' ' (a phrase never spans a line break: one title a
-- line). Immutable: stored generated columns only call immutable functions.
create function ranking_tokens(text text) returns text[] language sql immutable parallel safe as $$
  select string_to_array(trim(regexp_replace(
    replace(regexp_replace(text, '[^[:alnum:]' || chr(10) || ']+', ' ', 'g'),
            chr(10), ' ' || chr(10) || ' '),
    ' +', ' ', 'g')), ' ')
$$;

-- title_words: the tokens of the listing's own title. titles_words: of its title and its work's
-- other titles, one a line (null when the work has no other title: then they are title_words).
-- author_words: the words of the author's name and of its other spellings (migration 0055).
-- A generated column cannot read another one, so author_norm is spelt out.
alter table book_listings
  add column title_words text[] generated always as (
    ranking_tokens(lower(immutable_unaccent(title)))
  ) stored,
  add column titles_words text[] generated always as (
    case when work_titles is not null then ranking_tokens(lower(immutable_unaccent(title || chr(10) || work_titles))) end
  ) stored,
  add column author_words text[] generated always as (
    ranking_tokens(lower(immutable_unaccent(author)) || ' ' || coalesce(author_variants, ''))
  ) stored;
