-- Hand to hand (issue 22 item 2; decision 0075): a deal without shipping ends with a meeting.
-- Either side proposes a place and a time; the other accepts or proposes another (which replaces
-- the open one); after the time both confirm the exchange happened, which completes the deal.

-- Every proposal is kept (the conversation tells the story); at most one is current (open or
-- accepted) per deal, which the partial unique index holds even under races.
create table deal_meetings (
  id uuid primary key default gen_random_uuid(),
  deal_id uuid not null references deals(id) on delete cascade,
  proposed_by text not null references users(id) on delete cascade,
  place text not null check (char_length(place) between 1 and 200),
  note text check (char_length(note) <= 500),
  meet_at timestamptz not null,
  status text not null default 'open' check (status in ('open', 'accepted', 'replaced')),
  created_at timestamptz not null default now(),
  answered_at timestamptz
);
create unique index deal_meetings_current_idx on deal_meetings (deal_id)
  where status in ('open', 'accepted');
create index deal_meetings_deal_idx on deal_meetings (deal_id, created_at desc);
create index deal_meetings_proposer_idx on deal_meetings (proposed_by);

-- Each side's word that the exchange happened: once per side (the primary key), and the second
-- completes the deal in the same locked transaction.
create table deal_meeting_confirmations (
  deal_id uuid not null references deals(id) on delete cascade,
  user_id text not null references users(id) on delete cascade,
  confirmed_at timestamptz not null default now(),
  primary key (deal_id, user_id)
);
create index deal_meeting_confirmations_user_idx on deal_meeting_confirmations (user_id);
