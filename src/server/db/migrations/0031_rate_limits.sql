-- Rate-limit counters shared by every server process on this database (docs/decisions/0061).
-- One row per limiter key and running window: `count` attempts until `reset_at` (epoch
-- milliseconds); the first attempt after reset_at opens a new window in the same upsert.
-- UNLOGGED: no write-ahead log for counters that are worth nothing after a crash (a crash
-- empties the table, which only forgives attempts). Ended windows are deleted now and then by
-- the processes themselves. The embedded database keeps its counters in memory and never uses it.
create unlogged table rate_limits (
  key text primary key,
  count integer not null,
  reset_at bigint not null
);

create index rate_limits_reset_at on rate_limits (reset_at);
