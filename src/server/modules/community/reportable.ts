/**
 * Posts and comments are reportable (docs/moderation.md). A moderator's hide sets status
 * 'removed' (an author's own deletion is 'hidden'): every list, count and page already reads
 * only 'published' posts and comments, so a removed one is gone everywhere at once, and a
 * restore brings back exactly what a moderator removed.
 */
import { postTopic, type CommunityEvent } from '@shared/schemas/community';
import {
  defineReportable,
  type ModerationQuery,
  type ReportableView,
  ownerOfRow,
} from '../../platform/moderation';
import type { Realtime } from '../../platform/realtime';
import { excerpt } from '../moderation';
import { postPath } from './live';
import { isUuid } from './queries';

const uuids = (ids: string[]) => ids.filter(isUuid);

/** What a restore or hide answers when nothing changed: whether the item is (still) there. */
async function statusOf(query: ModerationQuery, table: string, id: string) {
  const [row] = await query<{ status: string }>(`select status from ${table} where id = $1`, [id]);
  return row?.status ?? null;
}

/** The columns both kinds' `load` reads: the item, its author and whether they are active. */
interface LoadedRow {
  id: string;
  content: string;
  user_id: string;
  display_name: string;
  status: string;
  active: boolean;
}

/**
 * The views of the loaded rows by id, as a reader sees them: a removed row, one of a suspended
 * author, or one `readable` says no to, only for a moderator.
 */
function viewsOf<R extends LoadedRow>(
  rows: R[],
  moderator: boolean | undefined,
  readable: (row: R) => boolean,
  view: (row: R) => { title: string; link: string },
) {
  const out = new Map<string, ReportableView>();
  for (const r of rows) {
    const removed = r.status === 'removed';
    if (!moderator && (removed || !r.active || !readable(r))) continue;
    out.set(r.id, {
      id: r.id,
      ...view(r),
      excerpt: excerpt(r.content),
      authorId: r.user_id,
      authorName: r.display_name,
      hidden: removed,
    });
  }
  return out;
}

async function publish(realtime: unknown, event: CommunityEvent) {
  const rt = realtime as Realtime | undefined;
  if (rt) await rt.toTopic(postTopic(event.postId), event);
}

export const postReportable = defineReportable({
  kind: 'post',
  async load(query, ids, viewer) {
    const rows = await query<{
      id: string;
      title: string | null;
      content: string;
      user_id: string;
      display_name: string;
      book_title: string | null;
      status: string;
      active: boolean;
    }>(
      `select p.id, p.title, p.content, p.user_id, u.display_name, b.title as book_title,
         p.status, u.account_status = 'active' as active
       from community_posts p join users u on u.id = p.user_id
       left join books b on b.id = p.book_id
       where p.id = any($1::uuid[]) and p.status <> 'hidden'`,
      [uuids(ids)],
    );
    return viewsOf(
      rows,
      viewer.moderator,
      () => true,
      (r) => ({ title: r.title || r.book_title || r.display_name, link: postPath(r.id) }),
    );
  },
  async hide(query, id) {
    if (!isUuid(id)) return false;
    // A removed post is no longer pinned (a restore does not pin it again).
    const rows = await query(
      `update community_posts set status = 'removed', is_pinned = false, pinned_at = null
       where id = $1 and status = 'published' returning id`,
      [id],
    );
    return rows.length > 0 || (await statusOf(query, 'community_posts', id)) === 'removed';
  },
  async restore(query, id) {
    if (!isUuid(id)) return false;
    const rows = await query(
      `update community_posts set status = 'published' where id = $1 and status = 'removed'
       returning id`,
      [id],
    );
    return rows.length > 0 || (await statusOf(query, 'community_posts', id)) === 'published';
  },
  ownerOf: (query, id) =>
    ownerOfRow(query, id, 'select user_id as owner from community_posts where id = $1'),
  // Readers of the post's page (topic post:<id>) refetch it: 404 once removed.
  async changed(id, { realtime, query }) {
    const [row] = await query<{ status: string }>(
      'select status from community_posts where id = $1',
      [id],
    );
    if (!row) return;
    await publish(realtime, {
      type: 'community.post',
      postId: id,
      action: row.status === 'published' ? 'restored' : 'removed',
    });
  },
});

export const commentReportable = defineReportable({
  kind: 'comment',
  async load(query, ids, viewer) {
    const rows = await query<{
      id: string;
      post_id: string;
      content: string;
      user_id: string;
      display_name: string;
      post_title: string | null;
      book_title: string | null;
      status: string;
      post_status: string;
      active: boolean;
    }>(
      `select c.id, c.post_id, c.content, c.user_id, u.display_name, p.title as post_title,
         b.title as book_title, c.status, p.status as post_status,
         u.account_status = 'active' as active
       from post_comments c join users u on u.id = c.user_id
       join community_posts p on p.id = c.post_id
       left join books b on b.id = p.book_id
       where c.id = any($1::uuid[]) and c.status <> 'hidden' and p.status <> 'hidden'`,
      [uuids(ids)],
    );
    return viewsOf(
      rows,
      viewer.moderator,
      (r) => r.post_status === 'published',
      (r) => ({ title: r.post_title || r.book_title || r.display_name, link: postPath(r.post_id) }),
    );
  },
  /** A top comment takes its published replies with it; they remember which comment took them. */
  async hide(query, id) {
    if (!isUuid(id)) return false;
    const rows = await query<{ id: string }>(
      `update post_comments set status = 'removed',
         removed_with = case when id = $1 then null else $1::uuid end
       where status = 'published' and (id = $1 or parent_comment_id = $1)
         and exists (select 1 from post_comments t where t.id = $1 and t.status = 'published')
       returning id`,
      [id],
    );
    return rows.length > 0 || (await statusOf(query, 'post_comments', id)) === 'removed';
  },
  async restore(query, id) {
    if (!isUuid(id)) return false;
    const rows = await query<{ id: string }>(
      `update post_comments set status = 'published', removed_with = null
       where status = 'removed' and (id = $1 or removed_with = $1)
         and exists (select 1 from post_comments t where t.id = $1 and t.status = 'removed')
       returning id`,
      [id],
    );
    return rows.length > 0 || (await statusOf(query, 'post_comments', id)) === 'published';
  },
  ownerOf: (query, id) =>
    ownerOfRow(query, id, 'select user_id as owner from post_comments where id = $1'),
  // Readers of the post refetch its comments (the count comes with the event).
  async changed(id, { realtime, query }) {
    const [row] = await query<{ post_id: string; status: string; comment_count: number }>(
      `select c.post_id, c.status, p.comment_count from post_comments c
       join community_posts p on p.id = c.post_id where c.id = $1`,
      [id],
    );
    if (!row) return;
    await publish(realtime, {
      type: 'community.comment',
      postId: row.post_id,
      commentId: id,
      action: row.status === 'published' ? 'created' : 'hidden',
      commentCount: row.comment_count,
    });
  },
});
