-- Counter-offers (issue 33 item 4). The seller answers a buyer's pending sale offer with another
-- amount: a new offer row (`counter_of` names the buyer's offer, which becomes 'countered'), made
-- by the seller and answered by the buyer. Same buyer, seller, room, books, currency and delivery,
-- so the one-pending-offer indexes, the accept path and the deal that opens work as for any offer.
alter table offers add column counter_of uuid references offers(id) on delete cascade;
alter table offers drop constraint offers_status_check;
alter table offers add constraint offers_status_check
  check (status in ('pending', 'accepted', 'declined', 'withdrawn', 'completed', 'cancelled',
    'countered'));
-- An offer is countered at most once (two counters racing: the second is a 409).
create unique index offers_one_counter_idx on offers (counter_of) where counter_of is not null;
