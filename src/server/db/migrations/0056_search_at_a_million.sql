-- Issue 35 item 5, the library search at a million listings (decision 0096).

-- "All 3 copies" under each result counts the visible copies of the page's works
-- (library/works/queries.ts, copiesPerWork): on the index of available listings by work it read
-- every copy's row for the seller and the hidden mark, 39,706 rows on 32,421 pages for a page of
-- the 24 most listed works at a million listings (5.4 s under load). With the seller in a partial
-- index of the visible available copies, the count is an index-only scan (392 buffers, 0.12 s).
create index if not exists book_listings_work_copies_idx on book_listings (work_id) include (user_id)
  where status = 'available' and hidden_at is null;

-- Every listing of a work, whatever its status: a work's titles changed (work_titles_changed,
-- migration 0053: also on a new book's first listing, when its work is made) and a work deleted
-- (work_id set null) update its listings, and without this index each read the whole table:
-- the first listing of a new book took about 2 s at a million listings under load.
create index if not exists book_listings_work_idx on book_listings (work_id);

-- A RUM index of the search words (Debian's postgresql-15-rum) was measured and not taken: a
-- common word's count on its whole words first, on RUM, saved nothing over the benchmark's mix
-- and slowed searches with a filter (decision 0096).
