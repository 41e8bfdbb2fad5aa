-- Users as better-auth's core "user" model, with the profile fields of spec 1 section 3.
create table users (
  id text primary key,
  email citext not null unique,
  email_verified boolean not null default false,
  display_name text not null default '',
  avatar_url text,
  username citext unique,
  display_username text,
  first_name text,
  last_name text,
  bio text,
  location_city text,
  location_country text,
  phone text,
  date_of_birth date,
  preferred_language text not null default 'en',
  email_notifications boolean not null default true,
  push_notifications boolean not null default true,
  privacy_level text not null default 'public',
  account_status text not null default 'active',
  last_seen_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- better-auth's "session" model. The token is what the signed session cookie carries.
create table sessions (
  id text primary key,
  user_id text not null references users (id) on delete cascade,
  token text not null unique,
  expires_at timestamptz not null,
  ip_address text,
  user_agent text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index sessions_user_idx on sessions (user_id);

-- better-auth's "account" model: one row per way of signing in (provider 'credential' holds the
-- password hash; 'google' holds the OpenID Connect subject and its encrypted tokens).
create table accounts (
  id text primary key,
  user_id text not null references users (id) on delete cascade,
  account_id text not null,
  provider_id text not null,
  access_token text,
  refresh_token text,
  id_token text,
  access_token_expires_at timestamptz,
  refresh_token_expires_at timestamptz,
  scope text,
  password text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (provider_id, account_id)
);
create index accounts_user_idx on accounts (user_id);

-- better-auth's "verification" model: e-mail verification and password reset tokens, OAuth state.
create table verifications (
  id text primary key,
  identifier text not null,
  value text not null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index verifications_identifier_idx on verifications (identifier);
