-- Blocking (issue 12, part 2): a member blocks another; the server keeps the two apart both ways
-- (messages, friend requests, offers, comments and reactions refused; each other's listings,
-- posts and comments hidden) until the blocker unblocks. Silent: the blocked member is not told.
create table blocks (
  blocker_id text not null references users (id) on delete cascade,
  blocked_id text not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (blocker_id, blocked_id),
  check (blocker_id <> blocked_id)
);
-- Who blocked me (the other direction of every check); the primary key serves "whom I blocked".
create index blocks_blocked_idx on blocks (blocked_id, blocker_id);
-- The settings list: whom I blocked, most recent first.
create index blocks_blocker_recent_idx on blocks (blocker_id, created_at desc, blocked_id);
