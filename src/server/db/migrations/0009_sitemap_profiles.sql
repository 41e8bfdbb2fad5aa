-- The sitemap lists public members' profiles page by page in the order they joined; this index
-- serves the count and each keyset page without reading members who are not public.
create index users_public_profiles_idx on users (created_at, id)
  where privacy_level = 'public' and account_status = 'active';
