-- Reviews by publication time (decision 0073): the job that tells both parties when a review
-- written alone is published after 14 days reads the reviews published since its last run.
create index if not exists reviews_published_idx on reviews (published_at);
