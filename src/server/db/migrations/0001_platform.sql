create extension if not exists pg_trgm;
create extension if not exists unaccent;
create extension if not exists citext;

-- unaccent() is only STABLE; indexes need an IMMUTABLE wrapper with a fixed dictionary.
create or replace function immutable_unaccent(text) returns text
  language sql immutable parallel safe strict
  as $$ select public.unaccent('public.unaccent'::regdictionary, $1) $$;

create table mail_outbox (
  id bigserial primary key,
  "to" text not null,
  subject text not null,
  text text not null,
  html text,
  created_at timestamptz not null default now()
);
create index mail_outbox_created_idx on mail_outbox (created_at desc);

create table contact_messages (
  id bigserial primary key,
  name text not null,
  email text not null,
  subject text not null check (subject in ('general', 'support', 'feedback', 'partnership', 'other')),
  message text not null,
  language text not null default 'it',
  ip text,
  created_at timestamptz not null default now()
);
