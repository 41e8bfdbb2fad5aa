-- Who uploaded each stored file. A file is released (deleted) only by its owner, when nothing
-- else shows it, and goes with its owner's account; an unowned file (a catalogue cover, or one
-- whose uploader cannot be told) is never released by a member.
create table if not exists uploads (
  url text primary key,
  owner_id text references users (id) on delete set null,
  bytes integer,
  created_at timestamptz not null default now()
);
create index if not exists uploads_owner_idx on uploads (owner_id);

-- Files already stored, from the records that show them. The cover upload route files each
-- upload under covers/<uploader's id>/, so that folder names the owner whatever record shows the
-- file; otherwise the one member whose records show it owns it. A file the catalogue shows, or
-- that several members' records show, stays unowned.
with shown (url, member_id, catalogue) as (
  select avatar_url, id, false from users where avatar_url like '/uploads/%'
  union all select cover_url, user_id, false from book_listings where cover_url like '/uploads/%'
  union all select unnest(images), user_id, false from book_listings where images <> '{}'
  union all select image_url, user_id, false from community_posts
    where image_url like '/uploads/%'
  union all select cover_image_url, author_id, false from book_advertisements
    where cover_image_url like '/uploads/%'
  union all select unnest(promotional_images), author_id, false from book_advertisements
    where promotional_images <> '{}'
  union all select cover_url, null, true from books where cover_url like '/uploads/%'
),
files as (
  select url, bool_or(catalogue) as catalogue,
    count(distinct member_id) as members, min(member_id) as member_id,
    case when split_part(url, '/', 3) = 'covers' then split_part(url, '/', 4) end as folder_owner
  from shown where url like '/uploads/%' group by url
)
insert into uploads (url, owner_id)
select f.url,
  case
    when f.catalogue then null
    when exists (select 1 from users u where u.id = f.folder_owner) then f.folder_owner
    when f.members = 1 then f.member_id
  end
from files f
on conflict (url) do nothing;

-- Whom an outbox e-mail names besides its recipient (the sender of a chat message, the actors of
-- a digest) and the address a reply goes to: deleting an account deletes the e-mails to or
-- naming that member by these, never by searching the text.
alter table mail_outbox add column if not exists about_user_ids text[] not null default '{}';
alter table mail_outbox add column if not exists reply_to text;
create index if not exists mail_outbox_about_idx on mail_outbox using gin (about_user_ids);
