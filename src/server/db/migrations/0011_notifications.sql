-- The notification centre (platform/notifications). A notification keeps ids and a few short
-- facts, never a copy of its subject: the list checks the subject's visibility when shown.
create table notifications (
  id uuid primary key default gen_random_uuid(),
  recipient_id text not null references users (id) on delete cascade,
  type text not null,
  -- A deleted account takes with it what it caused to be told (its requests, offers, likes).
  actor_id text references users (id) on delete cascade,
  actor_count integer not null default 1 check (actor_count >= 1),
  subject_type text not null,
  subject_id text not null,
  data jsonb not null default '{}'::jsonb,
  once_key text,
  group_key text,
  -- False when the member turned the type's in-app switch off but its e-mail switch on: the row
  -- exists only for the e-mail digest and is left out of the list and the count.
  in_app boolean not null default true,
  -- Waiting for the next e-mail digest.
  email_pending boolean not null default false,
  read_at timestamptz,
  created_at timestamptz not null default now(),
  -- Moves when a group folds in a new actor: the list is ordered by it.
  updated_at timestamptz not null default now()
);
-- The member's list, newest first (keyset paging on updated_at, id).
create index notifications_recipient_list_idx
  on notifications (recipient_id, updated_at desc, id desc) where in_app;
-- The unread count (the bell).
create index notifications_recipient_unread_idx
  on notifications (recipient_id, type) where read_at is null and in_app;
-- At most one notification per recipient, type and key, ever.
create unique index notifications_once_idx
  on notifications (recipient_id, type, once_key) where once_key is not null;
-- One unread row per recipient, type and group: new actors fold into it.
create unique index notifications_group_idx
  on notifications (recipient_id, type, group_key) where group_key is not null and read_at is null;
-- removeForSubject.
create index notifications_subject_idx on notifications (subject_type, subject_id);
-- The digest job: members with notifications waiting for an e-mail.
create index notifications_email_pending_idx
  on notifications (recipient_id, updated_at) where email_pending;
create index notifications_actor_idx on notifications (actor_id) where actor_id is not null;

-- Per member and type, the switches the member changed (absent: the type's defaults).
create table notification_settings (
  user_id text not null references users (id) on delete cascade,
  type text not null,
  in_app boolean not null,
  email boolean not null,
  updated_at timestamptz not null default now(),
  primary key (user_id, type)
);

-- When each member was last sent a digest: the hourly claim is one conditional upsert on it, so
-- two server processes never send the same member two digests within the hour.
create table notification_digests (
  user_id text primary key references users (id) on delete cascade,
  sent_at timestamptz not null
);
