import { POST_TOPIC_KIND } from '@shared/schemas/community';
import type { Database } from '../../db/client';
import type { Realtime } from '../../platform/realtime';
import type { Notifications } from '../../platform/notifications/types';
import { isUuid } from './queries';

export const postPath = (postId: string) => `/community/posts/${postId}`;

/**
 * The live topic `post:<id>` (anyone who may read the post follows its comments and likes) and
 * the community's notification types: comments on and likes of one's posts, likes grouped per
 * post ("Anna and 3 others liked your post"). A notification is shown only while what it points
 * to is still published.
 */
export function registerCommunityLive(opts: {
  realtime: Realtime;
  notifications: Notifications;
  database: Database;
  canRead: (postId: string) => Promise<boolean>;
}) {
  const { realtime, notifications, database, canRead } = opts;
  realtime.topic(POST_TOPIC_KIND, (_userId, postId) => canRead(postId));

  const publishedPosts = async (ids: string[]) => {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return new Set<string>();
    const rows = await database.query<{ id: string }>(
      `select id from community_posts where id = any($1::uuid[]) and status = 'published'`,
      [valid],
    );
    return new Set(rows.map((r) => r.id));
  };
  const publishedComments = async (ids: string[]) => {
    const valid = ids.filter(isUuid);
    if (valid.length === 0) return new Set<string>();
    const rows = await database.query<{ id: string }>(
      `select c.id from post_comments c join community_posts p on p.id = c.post_id
       where c.id = any($1::uuid[]) and c.status = 'published' and p.status = 'published'`,
      [valid],
    );
    return new Set(rows.map((r) => r.id));
  };
  const link = (n: { subjectId: string; data: Record<string, string | number | null> }) =>
    postPath(String(n.data.postId ?? n.subjectId));

  notifications.defineType({
    type: 'community.comment',
    defaults: { inApp: true, email: true },
    link,
    visible: (_recipient, ids) => publishedComments(ids),
  });
  notifications.defineType({
    type: 'community.reaction',
    defaults: { inApp: true, email: false },
    link,
    visible: (_recipient, ids) => publishedPosts(ids),
  });
}
