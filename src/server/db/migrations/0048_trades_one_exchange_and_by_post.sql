-- Trades (issue 33 item 8; decision 0090). A trade is one exchange between two members: a
-- completed trade deal records one transaction (the book asked for, the proposer its buyer, the
-- owner its seller), so each member reviews the other once. And trades go by post too: each
-- member sends their books in a parcel of their own.

-- 1. Trade deals completed before this rule have a transaction per book: they keep one, the
-- book asked for's (else the first), with each member's review moved onto it.
create temporary table trade_merge on commit drop as
select t.id, t.deal_id,
  first_value(t.id) over w as keep,
  row_number() over w as n
from transactions t
join deals d on d.id = t.deal_id
join offers o on o.id = d.offer_id
where o.kind = 'trade' and t.kind = 'trade'
window w as (partition by t.deal_id
  order by (t.listing_id is not distinct from o.listing_id) desc, (t.seller_id = d.seller_id) desc,
    t.created_at, t.id);

-- A member's review of the trade (their first, when they wrote one per book) goes to the kept
-- transaction, unless they reviewed that one already.
update reviews r set transaction_id = m.keep
from (
  select distinct on (x.keep, r2.author_id) r2.id as review_id, x.keep
  from trade_merge x join reviews r2 on r2.transaction_id = x.id
  where x.n > 1
    and not exists (select 1 from reviews k where k.transaction_id = x.keep and k.author_id = r2.author_id)
  order by x.keep, r2.author_id, r2.created_at, r2.id
) m
where r.id = m.review_id;

-- Both members' reviews now on one transaction: published together, as a second review does.
update reviews r set published_at = now()
where r.published_at > now()
  and r.transaction_id in (select keep from trade_merge)
  and (select count(*) from reviews k where k.transaction_id = r.transaction_id) = 2;

-- The other transactions go, with the reviews left on them (a member's second review of one trade).
delete from transactions where id in (select id from trade_merge where n > 1);

-- 2. Trades by post: a trade offer's delivery is by hand (shipping_amount null) or by post
-- (shipping_amount 0: each member pays their own parcel, nothing is paid between them).
alter table offers add constraint offers_trade_shipping_check
  check (kind = 'sale' or shipping_amount is null or shipping_amount = 0);

-- Each member's parcel of a trade by post: the address it goes to (given by the other member),
-- the carrier and tracking, when it left and when the other member confirmed it arrived.
create table deal_trade_parcels (
  deal_id uuid not null references deals(id) on delete cascade,
  sender_id text not null references users(id) on delete cascade,
  address jsonb,
  address_given_at timestamptz,
  carrier text,
  tracking text,
  shipped_at timestamptz,
  received_at timestamptz,
  primary key (deal_id, sender_id),
  check (shipped_at is null or (address is not null and carrier is not null and tracking is not null)),
  check (received_at is null or shipped_at is not null)
);
-- The job that completes a trade by post 14 days after both parcels left looks here.
create index deal_trade_parcels_shipped_idx on deal_trade_parcels (shipped_at)
  where shipped_at is not null;
