-- A completed transaction counts only when both members agreed to it: the buyer's offer was
-- accepted in a conversation, or the member the seller named confirmed it. `agreed_at` says when;
-- only agreed transactions can be reviewed. Rows completed before this rule keep their status
-- (history, counters and the reviews already written stay as they were); those that came from an
-- accepted offer are marked agreed, the others stay unagreed and take no new review.
alter table transactions add column if not exists agreed_at timestamptz;

update transactions t set agreed_at = t.created_at
where t.status = 'completed' and t.agreed_at is null
  and exists (select 1 from offers o
    where o.listing_id = t.listing_id and o.buyer_id = t.buyer_id and o.seller_id = t.seller_id
      and o.status = 'completed');

-- One sale awaiting confirmation per listing: naming someone else replaces it. Older duplicates
-- (none were ever written) would be cancelled, the newest kept.
with ranked as (
  select id, row_number() over (partition by listing_id order by created_at desc, id desc) as n
  from transactions where status = 'pending' and listing_id is not null)
update transactions t set status = 'cancelled' from ranked r where t.id = r.id and r.n > 1;
create unique index if not exists transactions_one_pending_idx on transactions (listing_id)
  where status = 'pending';
create index if not exists transactions_pending_buyer_idx on transactions (buyer_id) where status = 'pending';

-- At most one accepted offer per listing. Where an earlier bug left several, the first accepted
-- stays accepted and the later ones become declined (every row is kept).
with ranked as (
  select id, row_number() over (
    partition by listing_id order by answered_at nulls last, created_at, id) as n
  from offers where status = 'accepted')
update offers o set status = 'declined' from ranked r where o.id = r.id and r.n > 1;
create unique index if not exists offers_one_accepted_idx on offers (listing_id) where status = 'accepted';
