import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  COMMENTS_PAGE_SIZE,
  FRIENDS_POSTS_PAGE_SIZE,
  POPULAR_PAGE_SIZE,
  POSTS_PAGE_SIZE,
  SEARCH_PAGE_SIZE,
  commentPageSchema,
  commentSchema,
  createCommentSchema,
  createPostSchema,
  pageQuerySchema,
  postPageSchema,
  postSchema,
  reactionStateSchema,
  searchQuerySchema,
  updateCommentSchema,
  updatePostSchema,
} from '@shared/schemas/community';
import { MODERATION_REASON_MAX } from '@shared/moderation';
import type { Module } from '../../platform/module';
import { idParam, memberRoutes } from '../../platform/route-presets';
import { currentUser } from '../../platform/auth';
import { errorSchema, notFound, errorResponses } from '../../platform/errors';
import { adminOnly } from '../../platform/moderation';
import { publicRead } from '../../platform/http-cache';
import { registerCommunityLive } from './live';
import { listComments, listPosts, type PostList } from './queries';
import { RateLimited, createCommunityService } from './service';
// Posts and comments are reportable (the moderation registry).
import './reportable';

const postParams = idParam('postId');
const commentParams = idParam('commentId');
const userParams = idParam('userId');
const noContent = z.null().describe('No content');
const pinBody = z
  .object({ reason: z.string().trim().max(MODERATION_REASON_MAX).optional() })
  .nullish();
const viewer = (request: FastifyRequest) => request.user?.id ?? null;

/** A 429 of the hourly limits carries Retry-After; everything else goes to the error handler. */
const withRetryAfter = async <T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (err) {
    if (err instanceof RateLimited) reply.header('retry-after', String(err.retryAfterSeconds));
    throw err;
  }
};

/**
 * Community (contract: src/shared/schemas/community.ts): posts about books, comments, likes and
 * search. Reads are public except the friends tab; every write needs a member, and changes and
 * deletions of posts and comments only their author (403 for anyone else, nothing changed).
 */
export const communityRoutes: Module = async (app, deps) => {
  const { database, realtime, notifications } = deps;
  const community = createCommunityService({
    database,
    realtime,
    notifications,
    log: app.log,
    releaseUploads: deps.releaseUploads,
  });
  registerCommunityLive({ realtime, notifications, database, canRead: community.canRead });

  // The hourly limits are counted in the database; this only stops floods of requests.
  const { tags, security, writes, read, write } = memberRoutes(app, 'community', 120);
  const ownerErrors = {
    400: errorSchema,
    401: errorSchema,
    403: errorSchema,
    404: errorSchema,
  };

  const page = async (
    request: FastifyRequest,
    list: PostList,
    pageNumber: number | undefined,
    pageSize: number,
  ) => {
    const p = pageNumber ?? 1;
    const result = await listPosts(database, list, viewer(request), p, pageSize);
    return { ...result, page: p, pageSize };
  };

  app.get(
    '/api/community/posts/popular',
    {
      config: publicRead,
      schema: {
        tags,
        summary: `Popular this week: the last 7 days' posts, most likes first, then newest (${POPULAR_PAGE_SIZE} a page)`,
        querystring: pageQuerySchema,
        response: { 200: postPageSchema, 400: errorSchema },
      },
    },
    async (request) => page(request, { kind: 'popular' }, request.query.page, POPULAR_PAGE_SIZE),
  );

  app.get(
    '/api/community/posts/friends',
    read({
      summary: `Friends activity: my accepted friends' posts, newest first (${FRIENDS_POSTS_PAGE_SIZE} a page)`,
      querystring: pageQuerySchema,
      response: { 200: postPageSchema, 400: errorSchema, 401: errorSchema },
    }),
    async (request) =>
      page(
        request,
        { kind: 'friends', memberId: currentUser(request).id },
        request.query.page,
        FRIENDS_POSTS_PAGE_SIZE,
      ),
  );

  app.get(
    '/api/community/posts/search',
    {
      config: { ...publicRead, rateLimit: { max: 120, timeWindow: '1 minute' } },
      schema: {
        tags,
        summary:
          "Search posts: every word (a prefix, accents and case ignored) in the title, the text or the book's title and author; newest first",
        querystring: searchQuerySchema,
        response: { 200: postPageSchema, 400: errorSchema },
      },
    },
    async (request) =>
      page(request, { kind: 'search', q: request.query.q }, request.query.page, SEARCH_PAGE_SIZE),
  );

  app.get(
    '/api/community/users/:userId/posts',
    {
      config: publicRead,
      schema: {
        tags,
        summary: `A member's recent posts, newest first (${POSTS_PAGE_SIZE} a page)`,
        params: userParams,
        querystring: pageQuerySchema,
        response: { 200: postPageSchema, 400: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      if (!(await community.memberExists(request.params.userId)))
        throw notFound('communityApi.errors.memberNotFound');
      return page(
        request,
        { kind: 'user', userId: request.params.userId },
        request.query.page,
        POSTS_PAGE_SIZE,
      );
    },
  );

  app.get(
    '/api/community/posts/:postId',
    {
      config: publicRead,
      schema: {
        tags,
        summary: 'One post (shareable); 404 when missing or hidden',
        params: postParams,
        response: { 200: postSchema, 404: errorSchema },
      },
    },
    async (request) => community.get(request.params.postId, viewer(request)),
  );

  app.post(
    '/api/community/posts',
    write({
      summary: 'Write a post about a book (at most 10 an hour)',
      body: createPostSchema,
      response: { 201: postSchema, 400: errorSchema, 401: errorSchema, 429: errorSchema },
    }),
    async (request, reply) => {
      const post = await withRetryAfter(reply, () =>
        community.create(currentUser(request).id, request.body),
      );
      return reply.status(201).send(post);
    },
  );

  app.patch(
    '/api/community/posts/:postId',
    write({
      summary: 'Edit my post: only the fields sent change; marked edited',
      params: postParams,
      body: updatePostSchema,
      response: { 200: postSchema, ...ownerErrors },
    }),
    async (request) =>
      community.update(currentUser(request).id, request.params.postId, request.body),
  );

  app.delete(
    '/api/community/posts/:postId',
    write({
      summary: 'Delete my post (hidden: gone from every list, the search and its page)',
      params: postParams,
      response: { 204: noContent, ...ownerErrors },
    }),
    async (request, reply) => {
      await community.remove(currentUser(request).id, request.params.postId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/api/community/posts/:postId/comments',
    {
      config: publicRead,
      schema: {
        tags,
        summary: `A post's comments and replies, oldest first (${COMMENTS_PAGE_SIZE} a page)`,
        params: postParams,
        querystring: pageQuerySchema,
        response: { 200: commentPageSchema, 400: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      await community.assertReadable(request.params.postId, viewer(request));
      const p = request.query.page ?? 1;
      const result = await listComments(
        database,
        request.params.postId,
        viewer(request),
        p,
        COMMENTS_PAGE_SIZE,
      );
      return { ...result, page: p, pageSize: COMMENTS_PAGE_SIZE };
    },
  );

  app.post(
    '/api/community/posts/:postId/comments',
    write({
      summary: 'Comment on a post, or reply to a comment (at most 60 comments an hour)',
      params: postParams,
      body: createCommentSchema,
      response: { 201: commentSchema, ...errorResponses(400, 401, 404, 429) },
    }),
    async (request, reply) => {
      const comment = await withRetryAfter(reply, () =>
        community.comment(currentUser(request).id, request.params.postId, request.body),
      );
      return reply.status(201).send(comment);
    },
  );

  app.patch(
    '/api/community/comments/:commentId',
    write({
      summary: 'Edit my comment (marked edited)',
      params: commentParams,
      body: updateCommentSchema,
      response: { 200: commentSchema, ...ownerErrors },
    }),
    async (request) =>
      community.updateComment(
        currentUser(request).id,
        request.params.commentId,
        request.body.content,
      ),
  );

  app.delete(
    '/api/community/comments/:commentId',
    write({
      summary: 'Delete my comment (hidden, with the replies to it)',
      params: commentParams,
      response: { 204: noContent, ...ownerErrors },
    }),
    async (request, reply) => {
      await community.removeComment(currentUser(request).id, request.params.commentId);
      return reply.status(204).send(null);
    },
  );

  const reactionErrors = { 401: errorSchema, 404: errorSchema };
  for (const like of [true, false]) {
    const method = like ? app.put.bind(app) : app.delete.bind(app);
    method(
      '/api/community/posts/:postId/like',
      {
        ...writes,
        schema: {
          tags,
          security,
          summary: like ? 'Like a post (once; repeating changes nothing)' : 'Take back my like',
          params: postParams,
          response: { 200: reactionStateSchema, ...reactionErrors },
        },
      },
      async (request) => community.likePost(currentUser(request).id, request.params.postId, like),
    );
    method(
      '/api/community/comments/:commentId/like',
      {
        ...writes,
        schema: {
          tags,
          security,
          summary: like
            ? 'Like a comment (once; repeating changes nothing)'
            : 'Take back my like of a comment',
          params: commentParams,
          response: { 200: reactionStateSchema, ...reactionErrors },
        },
      },
      async (request) =>
        community.likeComment(currentUser(request).id, request.params.commentId, like),
    );
  }
  // Pinning (admins only: 401 for visitors, 404 for members, before the input is read).
  for (const pin of [true, false]) {
    const method = pin ? app.put.bind(app) : app.delete.bind(app);
    method(
      '/api/admin/posts/:postId/pin',
      {
        preValidation: adminOnly((text, params) => database.query(text, params)),
        schema: {
          tags: ['admin'],
          security,
          summary: pin
            ? 'Pin a post: first in the popular tab, marked pinned (at most 3 at once; written to the audit log)'
            : 'Unpin a post (written to the audit log)',
          params: postParams,
          body: pinBody,
          response: {
            200: postSchema,
            400: errorSchema,
            401: errorSchema,
            404: errorSchema,
            ...(pin ? { 409: errorSchema } : {}),
          },
        },
      },
      async (request) => {
        const user = currentUser(request);
        const actor = { id: user.id, email: user.email };
        const reason = request.body?.reason;
        return pin
          ? community.pin(actor, request.params.postId, reason)
          : community.unpin(actor, request.params.postId, reason);
      },
    );
  }
};
