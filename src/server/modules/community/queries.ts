import type { Comment, Post, PostAuthor } from '@shared/schemas/community';
import { PINNED_MAX, POPULAR_WINDOW_DAYS } from '@shared/schemas/community';
import type { Database } from '../../db/client';
import { sql, type Sql } from '../../db/sql';
import { coverPath, prefixQuery } from '../catalogue';
import type { Query } from '../../db/tx';
import { activeMember, notBlocked, visibleListing } from '../../platform/moderation';
import { isUuid } from '@shared/schemas/common';
import { toIso } from '../../db/rows';

/**
 * SQL: what the viewer (null for visitors) may read of the member in `column`: their account is
 * active (suspended or deleted members' posts and comments disappear) and, for a signed-in
 * viewer, no block stands between them (platform/moderation/blocks.ts).
 */
const readableAuthor = (column: string, viewerId: string | null) =>
  viewerId
    ? sql`${sql.raw(activeMember(column))} and ${notBlocked(sql`${viewerId}`, column)}`
    : sql.raw(activeMember(column));

export { isUuid };

interface AuthorColumns {
  user_id: string;
  display_name: string;
  username: string | null;
  avatar_url: string | null;
  account_status: string;
}

export interface PostRow extends AuthorColumns {
  id: string;
  book_id: string | null;
  title: string | null;
  content: string;
  post_type: Post['postType'];
  tags: string[];
  image_url: string | null;
  like_count: number;
  comment_count: number;
  is_pinned: boolean;
  is_edited: boolean;
  status: Post['status'];
  created_at: Date;
  updated_at: Date;
  book_title: string | null;
  book_author: string | null;
  book_cover_url: string | null;
  book_isbn: string | null;
  book_listing_id: string | null;
  liked_by_me: boolean;
}

export interface CommentRow extends AuthorColumns {
  id: string;
  post_id: string;
  parent_comment_id: string | null;
  content: string;
  like_count: number;
  is_edited: boolean;
  status: Comment['status'];
  created_at: Date;
  updated_at: Date;
  liked_by_me: boolean;
}

/** An author whose account is not active (closed, suspended) cannot be read. */
function toAuthor(row: AuthorColumns): PostAuthor | null {
  if (row.account_status !== 'active') return null;
  return {
    id: row.user_id,
    displayName: row.display_name,
    username: row.username,
    avatarUrl: row.avatar_url,
  };
}

export function toPost(row: PostRow, viewerId: string | null): Post {
  return {
    id: row.id,
    author: toAuthor(row),
    book:
      row.book_id && row.book_title !== null
        ? {
            id: row.book_id,
            title: row.book_title,
            author: row.book_author ?? '',
            coverImageUrl: row.book_cover_url ? coverPath(row.book_id) : null,
            isbn: row.book_isbn,
            listingId: row.book_listing_id,
          }
        : null,
    title: row.title,
    content: row.content,
    postType: row.post_type,
    tags: row.tags,
    imageUrl: row.image_url,
    likeCount: row.like_count,
    commentCount: row.comment_count,
    likedByMe: row.liked_by_me,
    isOwner: viewerId !== null && viewerId === row.user_id,
    isPinned: row.is_pinned,
    isEdited: row.is_edited,
    status: row.status,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

export function toComment(row: CommentRow, viewerId: string | null): Comment {
  return {
    id: row.id,
    postId: row.post_id,
    author: toAuthor(row),
    content: row.content,
    parentCommentId: row.parent_comment_id,
    likeCount: row.like_count,
    likedByMe: row.liked_by_me,
    isOwner: viewerId !== null && viewerId === row.user_id,
    isEdited: row.is_edited,
    status: row.status,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

/**
 * Post `p` with its author `u` and book `b`, as the viewer (null for visitors) sees it. `page`,
 * when given, is a subquery of the ids to read: lists pick their page from the posts' indexes
 * alone (often index-only), then read and join those rows only.
 */
const postSelect = (viewerId: string | null, page?: Sql) => sql`
  select p.id, p.user_id, p.book_id, p.title, p.content, p.post_type, p.tags, p.image_url,
    p.like_count, p.comment_count, p.is_pinned, p.is_edited, p.status, p.created_at, p.updated_at,
    u.display_name, u.username::text as username, u.avatar_url, u.account_status,
    b.title as book_title, b.author as book_author, b.cover_url as book_cover_url,
    coalesce(b.isbn_13, b.isbn_10) as book_isbn,
    (select l.id from book_listings l
      where p.book_id is not null and l.book_id = p.book_id and l.status = 'available'
        and ${sql.raw(visibleListing('l'))} and ${notBlocked(sql`${viewerId}`, 'l.user_id')}
      order by l.created_at desc, l.id desc limit 1) as book_listing_id,
    exists (select 1 from post_reactions r where r.post_id = p.id and r.user_id = ${viewerId}::text)
      as liked_by_me
  from ${page ? sql`(${page}) page join community_posts p on p.id = page.id` : sql`community_posts p`}
  join users u on u.id = p.user_id
  left join books b on b.id = p.book_id`;

const commentSelect = (viewerId: string | null) => sql`
  select c.id, c.post_id, c.user_id, c.parent_comment_id, c.content, c.like_count, c.is_edited,
    c.status, c.created_at, c.updated_at,
    u.display_name, u.username::text as username, u.avatar_url, u.account_status,
    exists (select 1 from comment_reactions r where r.comment_id = c.id and r.user_id = ${viewerId}::text)
      as liked_by_me
  from post_comments c
  join users u on u.id = c.user_id`;

/** One post whatever its status (the service decides what a hidden one answers). */
export async function findPost(
  query: Query,
  id: string,
  viewerId: string | null,
): Promise<PostRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await query<PostRow>(sql`${postSelect(viewerId)} where p.id = ${id}`);
  return row ?? null;
}

export async function findComment(
  query: Query,
  id: string,
  viewerId: string | null,
): Promise<(CommentRow & { post_status: Post['status'] }) | null> {
  if (!isUuid(id)) return null;
  const [row] = await query<CommentRow & { post_status: Post['status'] }>(
    sql`select x.*, p.status as post_status
        from (${commentSelect(viewerId)} where c.id = ${id}) x
        join community_posts p on p.id = x.post_id`,
  );
  return row ?? null;
}

export type PostList =
  | { kind: 'popular' }
  | { kind: 'friends'; memberId: string }
  | { kind: 'user'; userId: string }
  | { kind: 'search'; q: string };

/**
 * A page of published posts and their total. Every list reads only `status = 'published'`, so a
 * post deleted by its author or removed by a moderator is absent from all of them. The popular
 * tab starts with the pinned posts (at most PINNED_MAX).
 */
export async function listPosts(
  database: Database,
  list: PostList,
  viewerId: string | null,
  page: number,
  pageSize: number,
): Promise<{ items: Post[]; total: number }> {
  const conditions = [sql`p.status = 'published'`];
  let order = sql`p.created_at desc, p.id desc`;
  // Popular: pinned posts come first (read below with the same conditions as the list).
  let popular = false;
  switch (list.kind) {
    case 'popular':
      popular = true;
      order = sql`p.like_count desc, p.created_at desc, p.id desc`;
      break;
    case 'friends':
      // The friends' ids as an array: each friend's posts come from the (user_id, created_at)
      // index, then the newest are picked (rather than filtering the whole recent index).
      conditions.push(sql`p.user_id = any(array(
        select case when c.requester_id = ${list.memberId} then c.addressee_id else c.requester_id end
        from connections c
        where c.status = 'accepted'
          and (c.requester_id = ${list.memberId} or c.addressee_id = ${list.memberId})))`);
      break;
    case 'user':
      conditions.push(sql`p.user_id = ${list.userId}`);
      break;
    case 'search': {
      const tsquery = prefixQuery(list.q);
      if (!tsquery) return { items: [], total: 0 };
      // Newest first: ranking would read every match's vector (measured: about a second for
      // 28,000 matches among 200,000 posts); newest first stops at the page.
      conditions.push(sql`p.search_vector @@ to_tsquery('simple', immutable_unaccent(${tsquery}))`);
      break;
    }
  }
  // Blocks and inactive authors apply to pinned posts too.
  conditions.push(readableAuthor('p.user_id', viewerId));
  let pinned: PostRow[] = [];
  if (popular) {
    const page = sql`select p.id, p.pinned_at from community_posts p
      where ${sql.join(conditions, ' and ')} and p.is_pinned
      order by p.pinned_at desc, p.id limit ${PINNED_MAX}`;
    pinned = await database.query<PostRow>(
      sql`${postSelect(viewerId, page)} order by page.pinned_at desc, p.id`,
    );
    // The rest: this week's, without the pinned ones.
    conditions.push(sql`p.created_at >= now() - make_interval(days => ${POPULAR_WINDOW_DAYS})`);
    if (pinned.length) conditions.push(sql`p.id <> all(${pinned.map((r) => r.id)}::uuid[])`);
  }
  const where = sql.join(conditions, ' and ');
  // The combined list is pinned ++ rest: this page's slice of each.
  const start = (page - 1) * pageSize;
  const pinnedHere = pinned.slice(start, start + pageSize);
  const restOffset = Math.max(0, start - pinned.length);
  const restLimit = pageSize - pinnedHere.length;
  const [[count], rows] = await Promise.all([
    database.query<{ total: number }>(
      sql`select count(*)::int as total from community_posts p where ${where}`,
    ),
    restLimit > 0
      ? database.query<PostRow>(
          sql`${postSelect(
            viewerId,
            sql`select p.id from community_posts p where ${where}
                order by ${order} limit ${restLimit} offset ${restOffset}`,
          )} order by ${order}`,
        )
      : Promise.resolve([] as PostRow[]),
  ]);
  return {
    total: count.total + pinned.length,
    items: [...pinnedHere, ...rows].map((r) => toPost(r, viewerId)),
  };
}

/** Published comments of a post, oldest first (a reply is always newer than its parent). */
export async function listComments(
  database: Database,
  postId: string,
  viewerId: string | null,
  page: number,
  pageSize: number,
): Promise<{ items: Comment[]; total: number }> {
  const where = sql`c.post_id = ${postId} and c.status = 'published'
    and ${readableAuthor('c.user_id', viewerId)}`;
  const [[count], rows] = await Promise.all([
    database.query<{ total: number }>(
      sql`select count(*)::int as total from post_comments c where ${where}`,
    ),
    database.query<CommentRow>(
      sql`${commentSelect(viewerId)} where ${where}
          order by c.created_at, c.id limit ${pageSize} offset ${(page - 1) * pageSize}`,
    ),
  ]);
  return { total: count.total, items: rows.map((r) => toComment(r, viewerId)) };
}
