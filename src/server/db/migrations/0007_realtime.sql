-- Presence across server processes: one row per member and process holding at least one of the
-- member's sockets. Each process refreshes seen_at periodically; a row not refreshed within the
-- expiry window belongs to a dead process and no longer counts. Unlogged: presence is rebuilt by
-- live sockets, so a server crash may truncate it and nothing of value is lost.
create unlogged table realtime_presence (
  user_id text not null references users(id) on delete cascade,
  process_id text not null,
  connected_at timestamptz not null default now(),
  seen_at timestamptz not null default now(),
  primary key (user_id, process_id)
);
create index realtime_presence_process_idx on realtime_presence (process_id);
create index realtime_presence_seen_idx on realtime_presence (seen_at);
