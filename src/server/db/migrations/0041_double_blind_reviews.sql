-- Reviews that cannot retaliate (issue 22, item 7; docs/moderation.md, decision 0073).
-- A review is shown (profile, counts, ratings, every list and export of the member it is about)
-- only from its `published_at`. Written alone it is scheduled 14 days after the transaction was
-- agreed (completed by both); the second review of the same transaction publishes both at once.
-- The rule is read at query time (`published_at <= now`): no job publishes anything.
-- Reviews written before this rule stay published from when they were written.
alter table reviews add column if not exists published_at timestamptz;
update reviews set published_at = created_at where published_at is null;
alter table reviews alter column published_at set not null;
alter table reviews alter column published_at set default now();

-- A member's published reviews, newest first: the filter is read from the index too.
drop index if exists reviews_subject_idx;
create index if not exists reviews_subject_idx on reviews (subject_id, created_at desc, id desc)
  include (rating, published_at);
