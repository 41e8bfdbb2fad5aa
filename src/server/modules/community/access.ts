import { AppError, forbidden, notFound, validationFailed } from '../../platform/errors';
import { isAdmin, isBlockedBetween } from '../../platform/moderation';
import type { Query } from '../../db/tx';
import { isOwnUploadUrl } from '@shared/schemas/community';
import { findComment, findPost, isUuid } from './queries';

/**
 * Who may read and change what in the community: the 404s that hide what a viewer may not see
 * (hidden posts, suspended members, blocks), the owner checks, and the hourly write limits.
 */

export const postNotFound = () => notFound('communityApi.errors.postNotFound');
export const commentNotFound = () => notFound('communityApi.errors.commentNotFound');
const notOwner = () => forbidden('communityApi.errors.notOwner');

/** 429 with the seconds until the oldest counted item leaves the hour (Retry-After). */
export class RateLimited extends AppError {
  constructor(
    message: string,
    public readonly retryAfterSeconds: number,
  ) {
    super(429, 'rate_limited', message);
  }
}

/**
 * Serialises a member's writes of one kind and counts the last hour's in the database, so the
 * limit holds across server processes and simultaneous requests.
 */
export async function checkRate(
  tx: Query,
  me: string,
  table: 'community_posts' | 'post_comments',
  limit: number,
  message: string,
): Promise<void> {
  await tx('select pg_advisory_xact_lock(hashtext($1))', [`community:${table}:${me}`]);
  const [row] = await tx<{ n: number; retry: number | null }>(
    `select count(*)::int as n,
       ceil(extract(epoch from (min(created_at) + interval '1 hour' - now())))::int as retry
     from ${table} where user_id = $1 and created_at > now() - interval '1 hour'`,
    [me],
  );
  if (row.n >= limit) throw new RateLimited(message, Math.max(1, row.retry ?? 3600));
}

/** The readers' and owners' checks, on one connection or transaction (`query`). */
export function communityAccess(query: Query) {
  /**
   * The viewer may not read what the member `authorId` wrote: the author's account is not
   * active, or a block stands between the two (either way).
   */
  const unreadable = async (authorId: string, status: string, viewerId: string | null) =>
    status !== 'active' ||
    (viewerId !== null && (await isBlockedBetween(query, viewerId, authorId)));

  /**
   * A published post the viewer may read, else 404 (a hidden post, one of a suspended member or
   * of a member a block stands between the viewer and, is as absent as a missing one).
   */
  const publishedPost = async (id: string, viewerId: string | null, q: Query = query) => {
    const row = await findPost(q, id, viewerId);
    if (!row || row.status !== 'published') throw postNotFound();
    if (await unreadable(row.user_id, row.account_status, viewerId)) throw postNotFound();
    return row;
  };

  /** A published comment of a published post, both readable by the viewer, else 404. */
  const publishedComment = async (id: string, viewerId: string | null) => {
    const row = await findComment(query, id, viewerId);
    if (!row || row.status !== 'published' || row.post_status !== 'published')
      throw commentNotFound();
    if (await unreadable(row.user_id, row.account_status, viewerId)) throw commentNotFound();
    return row;
  };

  /** Just the author of a published post the viewer may read (likes need no more), else 404. */
  const postAuthor = async (id: string, viewerId: string) => {
    const [row] = isUuid(id)
      ? await query<{ user_id: string; account_status: string }>(
          `select p.user_id, u.account_status from community_posts p join users u on u.id = p.user_id
           where p.id = $1 and p.status = 'published'`,
          [id],
        )
      : [];
    if (!row || (await unreadable(row.user_id, row.account_status, viewerId))) throw postNotFound();
    return row.user_id;
  };

  const ownPost = async (me: string, id: string) => {
    const row = await publishedPost(id, me);
    if (row.user_id !== me) throw notOwner();
    return row;
  };

  const ownComment = async (me: string, id: string) => {
    const row = await publishedComment(id, me);
    if (row.user_id !== me) throw notOwner();
    return row;
  };

  const bookExists = async (bookId: string) => {
    if (!isUuid(bookId)) return false;
    const [row] = await query('select 1 from books where id = $1', [bookId]);
    return Boolean(row);
  };
  const bookRequired = () => validationFailed({ bookId: 'communityApi.validation.bookRequired' });
  const imageNotOwnUpload = () =>
    new AppError(400, 'validation_failed', 'communityApi.validation.imageNotOwnUpload', {
      imageUrl: 'communityApi.validation.imageNotOwnUpload',
    });
  /** A member's image: null for none; their own cover-pipeline upload, else 400. */
  const ownImage = (me: string, url: string | null | undefined): string | null => {
    if (!url) return null;
    if (!isOwnUploadUrl(me, url)) throw imageNotOwnUpload();
    return url;
  };

  /** Admins still read a post a moderator removed (from the queue's link); others get 404. */
  const readablePost = async (id: string, viewerId: string | null) => {
    const row = await findPost(query, id, viewerId);
    if (row?.status === 'published') {
      if (await unreadable(row.user_id, row.account_status, viewerId)) throw postNotFound();
      return row;
    }
    if (row?.status === 'removed' && viewerId && (await isAdmin(query, viewerId))) return row;
    throw postNotFound();
  };

  return {
    unreadable,
    publishedPost,
    publishedComment,
    postAuthor,
    ownPost,
    ownComment,
    bookExists,
    bookRequired,
    ownImage,
    readablePost,
  };
}
