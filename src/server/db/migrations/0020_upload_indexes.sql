-- Uploaded images are deleted once nothing shows them (platform/uploads.ts). These partial indexes
-- answer "does anything still show this upload?" without reading the big tables; catalogue and
-- remote covers (most rows) are not in them.
create index if not exists book_listings_uploaded_cover_idx on book_listings (cover_url)
  where cover_url like '/uploads/%';
create index if not exists books_uploaded_cover_idx on books (cover_url)
  where cover_url like '/uploads/%';
create index if not exists community_posts_uploaded_image_idx on community_posts (image_url)
  where image_url like '/uploads/%';
create index if not exists users_uploaded_avatar_idx on users (avatar_url)
  where avatar_url like '/uploads/%';
