-- The book page's "other copies of this book" and "more from this seller" (issue 20): the newest
-- available listings of one book, or of one seller, read in order from these partial indexes
-- (sold and traded listings, which pile up, are not in them).
create index if not exists book_listings_available_book_idx
  on book_listings (book_id, created_at desc, id desc) where status = 'available';
create index if not exists book_listings_available_user_idx
  on book_listings (user_id, created_at desc, id desc) where status = 'available';
