-- Trades through the deal flow (issue 22 item 2; decision 0080). A trade offer names books of
-- both members and no amount: `offers.kind = 'trade'`, `amount` null. offers.listing_id is the
-- book asked for (the owner's, the room's listing), buyer_id the member who proposes, seller_id
-- the owner; offer_listings holds every book of both sides (each book's owner is its
-- book_listings.user_id).
alter table offers add column kind text not null default 'sale' check (kind in ('sale', 'trade'));
alter table offers alter column amount drop not null;
alter table offers add constraint offers_kind_amount_check
  check ((kind = 'trade') = (amount is null));
