/**
 * Completed exchanges: one per transaction, but a trade deal's books (one transaction each,
 * decision 0080) count once, as the one trade they were.
 */
export const COMPLETED_COUNT = `count(distinct case when kind = 'trade' and deal_id is not null
  then 'deal:' || deal_id::text else id::text end)::int`;
