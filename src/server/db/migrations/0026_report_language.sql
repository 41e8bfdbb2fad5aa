-- The language a visitor reported in: the outcome of their report is e-mailed in it (members
-- are written to in their profile's preferred language, so their reports leave it null).
alter table reports add column reporter_language text check (reporter_language in ('it', 'en'));
