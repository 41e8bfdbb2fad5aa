import type { FastifyBaseLogger } from 'fastify';
import {
  COMMENTS_PER_HOUR,
  PINNED_MAX,
  POSTS_PER_HOUR,
  postTopic,
  type Comment,
  type CommunityEvent,
  type CreateCommentInput,
  type CreatePostInput,
  type Post,
  type ReactionState,
  type UpdatePostInput,
} from '@shared/schemas/community';
import type { z } from 'zod';
import type { Database } from '../../db/client';
import type { Realtime } from '../../platform/realtime';
import type { Notifications } from '../../platform/notifications/types';
import { conflict, validationFailed } from '../../platform/errors';
import { writeModerationLog, type Moderator } from '../../platform/moderation';
import { sql } from '../../db/sql';
import { inTransaction, type Query } from '../../db/tx';
import type { ReleaseUploads } from '../../platform/uploads';
import { findComment, findPost, isUuid, toComment, toPost, type PostRow } from './queries';
import { checkRate, commentNotFound, communityAccess, postNotFound } from './access';

export { commentNotFound, postNotFound, RateLimited } from './access';
import { type createPostSchema, type updatePostSchema } from '@shared/schemas/community';

type CreatePost = z.output<typeof createPostSchema>;
type UpdatePost = z.output<typeof updatePostSchema>;

export interface CommunityServiceDeps {
  database: Database;
  realtime: Realtime;
  notifications: Notifications;
  log: FastifyBaseLogger;
  /** An edit's replaced image goes (platform/uploads), unless something else shows it. */
  releaseUploads?: ReleaseUploads;
}

export function createCommunityService({
  database,
  realtime,
  notifications,
  log,
  releaseUploads = async () => [],
}: CommunityServiceDeps) {
  const query: Query = (text, params) => database.query(text, params);

  /** Live events never fail the request that caused them: the change is committed. */
  const publish = async (event: CommunityEvent) => {
    try {
      await realtime.toTopic(postTopic(event.postId), event);
    } catch (err) {
      log.warn({ err, type: event.type }, 'community event not published');
    }
  };

  const {
    publishedPost,
    unreadable,
    postAuthor,
    ownPost,
    ownComment,
    bookExists,
    bookRequired,
    ownImage,
    readablePost,
  } = communityAccess(query);

  // notify never throws into the caller (the service logs its failures).
  const notify = (input: Parameters<Notifications['notify']>[0]) => notifications.notify(input);

  const forget = async (subjectType: 'post' | 'comment', ids: string[]) => {
    if (ids.length === 0) return;
    try {
      await notifications.removeForSubject(subjectType, ids);
    } catch (err) {
      log.warn({ err }, 'community notifications not removed');
    }
  };

  const commentCount = async (postId: string) => {
    const [row] = await query<{ comment_count: number }>(
      'select comment_count from community_posts where id = $1',
      [postId],
    );
    return row?.comment_count ?? 0;
  };

  /** Pins or unpins a post (admins; the route checks): at most PINNED_MAX, logged. */
  const setPinned = async (
    actor: Moderator,
    id: string,
    pin: boolean,
    reason: string | undefined,
  ): Promise<Post> => {
    await inTransaction(database, async (tx) => {
      // One pin at a time, so two admins cannot both take the last place.
      await tx('select pg_advisory_xact_lock(hashtext($1))', ['community:pins']);
      const row = await publishedPost(id, null, tx);
      if (row.is_pinned === pin) return;
      if (pin) {
        const [{ n }] = await tx<{ n: number }>(
          `select count(*)::int as n from community_posts where is_pinned and status = 'published'`,
        );
        if (n >= PINNED_MAX) throw conflict('communityApi.errors.tooManyPinned');
      }
      await tx(
        `update community_posts set is_pinned = $2, pinned_at = case when $2 then now() end
         where id = $1`,
        [id, pin],
      );
      await writeModerationLog(
        tx,
        actor,
        pin ? 'pin' : 'unpin',
        { kind: 'post', itemId: id, targetUserId: row.user_id },
        reason?.trim() || (pin ? 'Pinned in the community feed' : 'Unpinned'),
      );
    });
    return toPost((await findPost(query, id, actor.id))!, actor.id);
  };

  return {
    async get(id: string, viewerId: string | null): Promise<Post> {
      return toPost(await readablePost(id, viewerId), viewerId);
    },

    pin: (actor: Moderator, id: string, reason?: string) => setPinned(actor, id, true, reason),
    unpin: (actor: Moderator, id: string, reason?: string) => setPinned(actor, id, false, reason),

    /** Who may follow a post live: anyone who may read it. */
    async canRead(id: string): Promise<boolean> {
      const row = isUuid(id)
        ? (
            await query<{ status: string }>('select status from community_posts where id = $1', [
              id,
            ])
          )[0]
        : undefined;
      return row?.status === 'published';
    },

    async memberExists(userId: string): Promise<boolean> {
      const [row] = await query(
        `select 1 from users where id = $1 and account_status <> 'deleted'`,
        [userId],
      );
      return Boolean(row);
    },

    async create(me: string, input: CreatePost | CreatePostInput): Promise<Post> {
      const body = input as CreatePost;
      if (!(await bookExists(body.bookId))) throw bookRequired();
      const imageUrl = ownImage(me, body.imageUrl);
      const id = await inTransaction(database, async (tx) => {
        await checkRate(
          tx,
          me,
          'community_posts',
          POSTS_PER_HOUR,
          'communityApi.errors.postRateLimited',
        );
        const [row] = await tx<{ id: string }>(
          `insert into community_posts (user_id, book_id, title, content, post_type, tags, image_url)
           values ($1, $2, $3, $4, $5, $6, $7) returning id`,
          [
            me,
            body.bookId,
            body.title ? body.title : null,
            body.content,
            body.postType ?? 'discussion',
            body.tags ?? [],
            imageUrl,
          ],
        );
        return row.id;
      });
      return toPost((await findPost(query, id, me)) as PostRow, me);
    },

    async update(me: string, id: string, input: UpdatePost | UpdatePostInput): Promise<Post> {
      const body = input as UpdatePost;
      await ownPost(me, id);
      if (body.bookId !== undefined && !(await bookExists(body.bookId))) throw bookRequired();
      const imageUrl = body.imageUrl === undefined ? undefined : ownImage(me, body.imageUrl);
      const sets = [sql`is_edited = true`, sql`updated_at = now()`];
      const set = (column: string, value: unknown) => sets.push(sql`${sql.raw(column)} = ${value}`);
      if (body.bookId !== undefined) set('book_id', body.bookId);
      if (body.content !== undefined) set('content', body.content);
      if (body.title !== undefined) set('title', body.title ? body.title : null);
      if (body.postType !== undefined) set('post_type', body.postType);
      if (body.tags !== undefined) set('tags', body.tags);
      if (imageUrl !== undefined) set('image_url', imageUrl);
      const [row] = await query<{ id: string; image_url: string | null; previous: string | null }>(
        sql`with old as (select id, image_url from community_posts where id = ${id} for update)
            update community_posts p set ${sql.join(sets)}
            from old where p.id = old.id and p.user_id = ${me} and p.status = 'published'
            returning p.id, p.image_url, old.image_url as previous`,
      );
      if (!row) throw postNotFound();
      if (row.previous && row.previous !== row.image_url) await releaseUploads(me, [row.previous]);
      return toPost((await findPost(query, id, me)) as PostRow, me);
    },

    /** Soft delete: hidden, absent from every list, search and the detail. */
    async remove(me: string, id: string): Promise<void> {
      await ownPost(me, id);
      const [row] = await query<{ id: string }>(
        `update community_posts set status = 'hidden', updated_at = now()
         where id = $1 and user_id = $2 and status = 'published' returning id`,
        [id, me],
      );
      if (!row) throw postNotFound();
      const comments = await query<{ id: string }>(
        'select id from post_comments where post_id = $1',
        [id],
      );
      await forget('post', [id]);
      await forget(
        'comment',
        comments.map((c) => c.id),
      );
    },

    /**
     * 404 unless the post is published and readable (a hidden post's comments are as gone as the
     * post); admins still read the comments of a post a moderator removed.
     */
    async assertReadable(postId: string, viewerId: string | null = null): Promise<void> {
      await readablePost(postId, viewerId);
    },

    async comment(me: string, postId: string, input: CreateCommentInput): Promise<Comment> {
      const post = await publishedPost(postId, me);
      let parentId: string | null = null;
      if (input.parentCommentId) {
        const parent = isUuid(input.parentCommentId)
          ? (
              await query<{
                id: string;
                parent_comment_id: string | null;
                user_id: string;
                account_status: string;
              }>(
                `select c.id, c.parent_comment_id, c.user_id, u.account_status
                 from post_comments c join users u on u.id = c.user_id
                 where c.id = $1 and c.post_id = $2 and c.status = 'published'`,
                [input.parentCommentId, postId],
              )
            )[0]
          : undefined;
        if (!parent || (await unreadable(parent.user_id, parent.account_status, me)))
          throw validationFailed({ parentCommentId: 'communityApi.validation.parentNotFound' });
        // One level: a reply to a reply answers the top comment.
        parentId = parent.parent_comment_id ?? parent.id;
      }
      const id = await inTransaction(database, async (tx) => {
        await checkRate(
          tx,
          me,
          'post_comments',
          COMMENTS_PER_HOUR,
          'communityApi.errors.commentRateLimited',
        );
        const [row] = await tx<{ id: string }>(
          `insert into post_comments (post_id, user_id, parent_comment_id, content)
           select $1, $2, $3, $4 where exists (
             select 1 from community_posts where id = $1 and status = 'published')
           returning id`,
          [postId, me, parentId, input.content],
        );
        if (!row) throw postNotFound();
        return row.id;
      });
      const comment = toComment((await findComment(query, id, me))!, me);
      await publish({
        type: 'community.comment',
        postId,
        commentId: id,
        action: 'created',
        commentCount: await commentCount(postId),
      });
      await notify({
        recipientId: post.user_id,
        type: 'community.comment',
        actorId: me,
        subject: { type: 'comment', id },
        data: { postId },
      });
      return comment;
    },

    async updateComment(me: string, id: string, content: string): Promise<Comment> {
      const current = await ownComment(me, id);
      const [row] = await query<{ id: string }>(
        `update post_comments set content = $3, is_edited = true, updated_at = now()
         where id = $1 and user_id = $2 and status = 'published' returning id`,
        [id, me, content],
      );
      if (!row) throw commentNotFound();
      await publish({
        type: 'community.comment',
        postId: current.post_id,
        commentId: id,
        action: 'updated',
        commentCount: await commentCount(current.post_id),
      });
      return toComment((await findComment(query, id, me))!, me);
    },

    /** Soft delete; a top comment takes its replies with it (one statement, counts exact). */
    async removeComment(me: string, id: string): Promise<void> {
      const current = await ownComment(me, id);
      const hidden = await query<{ id: string }>(
        `update post_comments set status = 'hidden', updated_at = now()
         where status = 'published' and (
           (id = $1 and user_id = $2) or
           (parent_comment_id = $1 and exists (
             select 1 from post_comments t where t.id = $1 and t.user_id = $2 and t.status = 'published')))
         returning id`,
        [id, me],
      );
      if (!hidden.some((h) => h.id === id)) throw commentNotFound();
      await publish({
        type: 'community.comment',
        postId: current.post_id,
        commentId: id,
        action: 'hidden',
        commentCount: await commentCount(current.post_id),
      });
      await forget(
        'comment',
        hidden.map((h) => h.id),
      );
    },

    async likePost(me: string, postId: string, like: boolean): Promise<ReactionState> {
      const authorId = await postAuthor(postId, me);
      const changed = like
        ? await query(
            `insert into post_reactions (post_id, user_id) values ($1, $2)
             on conflict do nothing returning post_id`,
            [postId, me],
          )
        : await query(
            'delete from post_reactions where post_id = $1 and user_id = $2 returning post_id',
            [postId, me],
          );
      const [row] = await query<{ like_count: number }>(
        'select like_count from community_posts where id = $1',
        [postId],
      );
      const state = { liked: like, likeCount: row?.like_count ?? 0 };
      if (changed.length > 0) {
        await publish({
          type: 'community.reaction',
          postId,
          commentId: null,
          likeCount: state.likeCount,
        });
        if (like)
          await notify({
            recipientId: authorId,
            type: 'community.reaction',
            actorId: me,
            subject: { type: 'post', id: postId },
            data: { postId },
            groupKey: postId,
          });
      }
      return state;
    },

    async likeComment(me: string, commentId: string, like: boolean): Promise<ReactionState> {
      const [comment] = isUuid(commentId)
        ? await query<{ post_id: string; user_id: string; account_status: string }>(
            `select c.post_id, c.user_id, u.account_status
             from post_comments c join community_posts p on p.id = c.post_id
               join users u on u.id = c.user_id
             where c.id = $1 and c.status = 'published' and p.status = 'published'`,
            [commentId],
          )
        : [];
      if (!comment || (await unreadable(comment.user_id, comment.account_status, me)))
        throw commentNotFound();
      // Nor a reaction under a post of a member a block stands between (or who is suspended).
      await postAuthor(comment.post_id, me);
      const changed = like
        ? await query(
            `insert into comment_reactions (comment_id, user_id) values ($1, $2)
             on conflict do nothing returning comment_id`,
            [commentId, me],
          )
        : await query(
            'delete from comment_reactions where comment_id = $1 and user_id = $2 returning comment_id',
            [commentId, me],
          );
      const [row] = await query<{ like_count: number }>(
        'select like_count from post_comments where id = $1',
        [commentId],
      );
      const state = { liked: like, likeCount: row?.like_count ?? 0 };
      if (changed.length > 0)
        await publish({
          type: 'community.reaction',
          postId: comment.post_id,
          commentId,
          likeCount: state.likeCount,
        });
      return state;
    },
  };
}

export type CommunityService = ReturnType<typeof createCommunityService>;
