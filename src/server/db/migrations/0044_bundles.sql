-- Bundles (issue 22 item 3, decision 0076): one offer for several books of one seller, with one
-- shipping cost by the seller's rule. The books of a bundle offer are its offer_listings (0040);
-- offers.listing_id stays its first book.

-- A bundle offer, so that a buyer has at most one open bundle offer with a seller at a time.
alter table offers add column bundle boolean not null default false;
create unique index offers_one_pending_bundle_idx on offers (buyer_id, seller_id)
  where status = 'pending' and bundle;

-- The seller's rule for a bundle's shipping: no row or a null amount, the highest single
-- shipping cost of its books; an amount, that price for the whole parcel.
create table bundle_rules (
  seller_id text primary key references users(id) on delete cascade,
  shipping_amount numeric(10, 2) check (shipping_amount >= 0 and shipping_amount <= 1000),
  updated_at timestamptz not null default now()
);
