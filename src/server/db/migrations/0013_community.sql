-- Community: posts about books, comments (one level of replies) and likes on both.
-- Counts (likes, comments) are kept by triggers in the statement that changes them, so they
-- stay exact under any number of simultaneous likes: each one is `x = x + 1` on the row.
-- Text search: a tsvector kept by a trigger over the post's title and content and its book's
-- title and author, 'simple' configuration over immutable_unaccent (as the library's search:
-- no stemming, accents and case ignored, Italian and English alike).

create table community_posts (
  id uuid primary key default gen_random_uuid(),
  user_id text not null references users (id) on delete cascade,
  book_id uuid references books (id) on delete set null,
  title text,
  content text not null,
  post_type text not null default 'discussion'
    check (post_type in ('discussion', 'review', 'recommendation', 'question')),
  tags text[] not null default '{}',
  image_url text,
  like_count integer not null default 0 check (like_count >= 0),
  comment_count integer not null default 0 check (comment_count >= 0),
  is_pinned boolean not null default false,
  is_edited boolean not null default false,
  status text not null default 'published' check (status in ('published', 'hidden')),
  search_vector tsvector not null default ''::tsvector,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- Profile posts and the friends tab (user_id = any(friends)): their pages and counts are
-- index-only scans.
create index community_posts_user_idx
  on community_posts (user_id, created_at desc, id desc) where status = 'published';
-- The hourly rate limit: every status counts, so deleting does not give posts back.
create index community_posts_user_all_idx on community_posts (user_id, created_at);
-- Popular this week: a range over created_at, then ordered by likes.
create index community_posts_recent_idx
  on community_posts (created_at desc, id desc) where status = 'published';
create index community_posts_popular_idx
  on community_posts (like_count desc, created_at desc, id desc) where status = 'published';
create index community_posts_book_idx on community_posts (book_id);
create index community_posts_search_idx on community_posts using gin (search_vector);

create table post_comments (
  id uuid primary key default gen_random_uuid(),
  post_id uuid not null references community_posts (id) on delete cascade,
  user_id text not null references users (id) on delete cascade,
  -- The top comment this one answers (one level: the server attaches replies to replies there).
  parent_comment_id uuid references post_comments (id) on delete cascade,
  content text not null,
  like_count integer not null default 0 check (like_count >= 0),
  is_edited boolean not null default false,
  status text not null default 'published' check (status in ('published', 'hidden')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index post_comments_post_idx
  on post_comments (post_id, created_at, id) where status = 'published';
create index post_comments_parent_idx on post_comments (parent_comment_id)
  where parent_comment_id is not null;
create index post_comments_user_idx on post_comments (user_id, created_at desc);

create table post_reactions (
  post_id uuid not null references community_posts (id) on delete cascade,
  user_id text not null references users (id) on delete cascade,
  reaction text not null default 'like' check (reaction in ('like')),
  created_at timestamptz not null default now(),
  primary key (post_id, user_id)
);
-- Friends' interaction counts: the reactions of one member.
create index post_reactions_user_idx on post_reactions (user_id, post_id);

create table comment_reactions (
  comment_id uuid not null references post_comments (id) on delete cascade,
  user_id text not null references users (id) on delete cascade,
  reaction text not null default 'like' check (reaction in ('like')),
  created_at timestamptz not null default now(),
  primary key (comment_id, user_id)
);
create index comment_reactions_user_idx on comment_reactions (user_id);

-- ---------- counts ----------

create function community_post_like_count() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    update community_posts set like_count = like_count + 1 where id = new.post_id;
  else
    update community_posts set like_count = like_count - 1 where id = old.post_id;
  end if;
  return null;
end
$$;
create trigger post_reactions_count after insert or delete on post_reactions
  for each row execute function community_post_like_count();

create function community_comment_like_count() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    update post_comments set like_count = like_count + 1 where id = new.comment_id;
  else
    update post_comments set like_count = like_count - 1 where id = old.comment_id;
  end if;
  return null;
end
$$;
create trigger comment_reactions_count after insert or delete on comment_reactions
  for each row execute function community_comment_like_count();

-- comment_count = the post's published comments (replies included).
create function community_comment_count() returns trigger language plpgsql as $$
declare
  delta integer := 0;
  target uuid;
begin
  if tg_op = 'INSERT' then
    target := new.post_id;
    if new.status = 'published' then delta := 1; end if;
  elsif tg_op = 'DELETE' then
    target := old.post_id;
    if old.status = 'published' then delta := -1; end if;
  else
    target := new.post_id;
    if old.status = 'published' and new.status <> 'published' then delta := -1;
    elsif old.status <> 'published' and new.status = 'published' then delta := 1;
    end if;
  end if;
  if delta <> 0 then
    update community_posts set comment_count = comment_count + delta where id = target;
  end if;
  return null;
end
$$;
create trigger post_comments_count after insert or delete or update of status on post_comments
  for each row execute function community_comment_count();

-- ---------- search ----------

create function community_post_search_vector() returns trigger language plpgsql as $$
declare
  book_title text;
  book_author text;
begin
  select b.title, b.author into book_title, book_author from books b where b.id = new.book_id;
  new.search_vector :=
    setweight(to_tsvector('simple', immutable_unaccent(coalesce(new.title, ''))), 'A') ||
    setweight(to_tsvector('simple', immutable_unaccent(new.content)), 'B') ||
    setweight(to_tsvector('simple',
      immutable_unaccent(coalesce(book_title, '') || ' ' || coalesce(book_author, ''))), 'C');
  return new;
end
$$;
create trigger community_posts_search_vector
  before insert or update of title, content, book_id on community_posts
  for each row execute function community_post_search_vector();

-- A book whose title or author changes (catalogue refresh) re-indexes its posts.
create function community_book_renamed() returns trigger language plpgsql as $$
begin
  if new.title is distinct from old.title or new.author is distinct from old.author then
    update community_posts set book_id = book_id where book_id = new.id;
  end if;
  return null;
end
$$;
create trigger books_community_search after update of title, author on books
  for each row execute function community_book_renamed();
