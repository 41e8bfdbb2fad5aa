-- Ads (issue 19): clicks are billed only within the ad's budgets, and addresses authors supplied
-- are kept only in the one form that points where it claims. Every row stays.

-- A counted click is billed or not: past the daily or total budget it is recorded, not charged.
-- Null for impressions and conversions. Clicks counted before this migration were all charged.
alter table ad_events add column billed boolean;
update ad_events set billed = true where kind = 'click';
alter table ad_events add constraint ad_events_billed_check
  check ((kind = 'click') = (billed is not null));

-- Billed clicks per ad and UTC day (today's spend) and per ad (all-time spend), written by the
-- event writer in the statement that counts the clicks, while it holds the ad's row lock.
alter table ad_daily_stats add column billed_clicks integer not null default 0;
update ad_daily_stats set billed_clicks = clicks;
alter table book_advertisements add column billed_click_count integer not null default 0;
update book_advertisements set billed_click_count = click_count;

-- Images must be one of our uploads exactly as the storage names them (src/shared/urls.ts);
-- anything else (a relative path that a browser resolves to the API, a foreign host) is dropped.
update book_advertisements
  set cover_image_url = null
  where cover_image_url is not null
    and cover_image_url !~ '^/uploads/([A-Za-z0-9][A-Za-z0-9_-]{0,63}/){1,4}[a-f0-9]{32}\.webp$';
update book_advertisements
  set promotional_images = array(
    select u from unnest(promotional_images) with ordinality as p(u, n)
    where u ~ '^/uploads/([A-Za-z0-9][A-Za-z0-9_-]{0,63}/){1,4}[a-f0-9]{32}\.webp$'
    order by n)
  where exists (
    select 1 from unnest(promotional_images) u
    where u !~ '^/uploads/([A-Za-z0-9][A-Za-z0-9_-]{0,63}/){1,4}[a-f0-9]{32}\.webp$');

-- Links must be absolute https URLs: a host with a dot, no credentials, no spaces or backslashes.
create function pg_temp.is_https_link(u text) returns boolean language sql immutable as $$
  select u ~ '^https://[A-Za-z0-9.-]*[A-Za-z0-9-]\.[A-Za-z0-9-]+(:[0-9]{1,5})?([/?#][^\s\\]*)?$'
$$;
update book_advertisements set trailer_video_url = null
  where trailer_video_url is not null and not pg_temp.is_https_link(trailer_video_url);
update book_advertisements set sample_chapter_url = null
  where sample_chapter_url is not null and not pg_temp.is_https_link(sample_chapter_url);
update book_advertisements set author_website_url = null
  where author_website_url is not null and not pg_temp.is_https_link(author_website_url);
update book_advertisements
  set social_links = array(
    select u from unnest(social_links) with ordinality as p(u, n)
    where pg_temp.is_https_link(u) order by n)
  where exists (select 1 from unnest(social_links) u where not pg_temp.is_https_link(u));
update book_advertisements
  set purchase_links = (
    select coalesce(jsonb_object_agg(k, v), '{}'::jsonb)
    from jsonb_each(purchase_links) as e(k, v)
    where jsonb_typeof(v) = 'string' and pg_temp.is_https_link(v #>> '{}'))
  where exists (
    select 1 from jsonb_each(purchase_links) as e(k, v)
    where jsonb_typeof(v) <> 'string' or not pg_temp.is_https_link(v #>> '{}'));
