-- What was agreed stays agreed (issue 32 items 2 and 3). A deal keeps its books as
-- they were when the offer was accepted: the listings may change or be deleted after the deal
-- ended, the deal still shows what its two sides agreed on. Deleting a listing never erases a
-- deal: an offer that opened a deal keeps it with a null listing_id.

create table deal_books (
  deal_id uuid not null references deals(id) on delete cascade,
  -- The order the deal shows its books in (title, then the listing's id, at acceptance).
  position integer not null,
  -- The listing as it is now; null once it is deleted (after the deal ended).
  listing_id uuid references book_listings(id) on delete set null,
  -- The member the book belongs to (in a trade, each side gives their own).
  owner_id text not null references users(id) on delete cascade,
  title text not null,
  author text not null,
  condition text not null,
  description text,
  price numeric(10, 2),
  currency text not null,
  shipping_cost numeric(10, 2),
  cover_url text,
  primary key (deal_id, position)
);
create index deal_books_listing_idx on deal_books (listing_id) where listing_id is not null;

-- The deals there are already get the books as their listings are now.
insert into deal_books (deal_id, position, listing_id, owner_id, title, author, condition,
  description, price, currency, shipping_cost, cover_url)
select d.id, row_number() over (partition by d.id order by l.title, l.id), l.id, l.user_id,
  l.title, l.author, l.condition, l.description, l.price, l.currency, l.shipping_cost,
  coalesce(l.cover_url, case when b.cover_url is not null then '/api/covers/' || b.id end)
from deals d
join offer_listings ol on ol.offer_id = d.offer_id
join book_listings l on l.id = ol.listing_id
left join books b on b.id = l.book_id;

-- An offer outlives its listing when it opened a deal (the listing service deletes the others
-- with the listing, as the cascade did).
alter table offers alter column listing_id drop not null;
alter table offers drop constraint offers_listing_id_fkey;
alter table offers add constraint offers_listing_id_fkey
  foreign key (listing_id) references book_listings(id) on delete set null;
