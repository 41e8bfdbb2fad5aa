import { z } from 'zod';
import { isOwnCoverUpload } from '../urls';
import type { RealtimeEvent } from '../realtimeEvents';
import { pageNumber, pageOf } from './common';

/*
 * Community API (server: src/server/modules/community). Request rules shared by the server and the
 * web forms, and the answers' shapes. Messages are locale keys under `communityApi.*` (the server
 * answers them translated into the request's language: Accept-Language or X-Language).
 *
 * Errors always have the shape {"error": {"code", "message", "fields"?}}. Every route may answer
 * 400 (bad query/params/body, `fields` per field), and 429 (rate limit). Visitors = not signed in.
 *
 * POSTS (a Post is `postSchema`; a page is {items, page, pageSize, total}; `page` starts at 1)
 *   GET    /api/community/posts/popular?page          public. Pinned posts first (at most
 *          PINNED_MAX = 3, newest pin first, whatever their age, isPinned true), then this week's
 *          (last 7 days) published posts, most likes first, then newest. 200 PostPage (pageSize
 *          POPULAR_PAGE_SIZE = 10; total counts the pinned ones).
 *   GET    /api/community/posts/friends?page          members. Accepted friends' published posts,
 *          newest first. 200 PostPage (FRIENDS_POSTS_PAGE_SIZE = 50). 401 for visitors.
 *   GET    /api/community/posts/search?q&page         public. Full text over title, content and
 *          the book's title and author; accents and case ignored, every word matches as a prefix
 *          (Italian and English alike); newest first. q: 2 to 100 characters
 *          (400 communityApi.validation.queryTooShort / queryTooLong). 200 PostPage (20 a page).
 *   GET    /api/community/users/:userId/posts?page    public (profile's recent posts), newest
 *          first. 200 PostPage (POSTS_PAGE_SIZE = 20); 404 when the member does not exist.
 *   GET    /api/community/posts/:postId               public, shareable. 200 Post; 404 when
 *          missing, deleted or removed by a moderator (communityApi.errors.postNotFound); admins
 *          still read a removed post (status 'removed') and its comments.
 *   PUT    /api/admin/posts/:postId/pin               admins (401 visitors, 404 members). Body
 *          {reason?}. 200 Post (isPinned true); 404 missing or not published; 409
 *          communityApi.errors.tooManyPinned past PINNED_MAX. Written to the audit log.
 *   DELETE /api/admin/posts/:postId/pin               admins. 200 Post (isPinned false).
 *   POST   /api/community/posts                       members. Body createPostSchema
 *          {bookId, content, title?, postType?, tags?, imageUrl?}. 201 Post. 400 with fields.bookId
 *          'communityApi.validation.bookRequired' (missing, or no such book), fields.content
 *          contentRequired / contentTooLong, fields.imageUrl imageNotOwnUpload (imageUrl must be
 *          a URL that POST /api/uploads/cover gave this member: '/uploads/covers/<own id>/….webp';
 *          another member's upload or any outside URL is refused and nothing is stored); 401; 429 communityApi.errors.postRateLimited
 *          (POSTS_PER_HOUR = 10 a member per rolling hour, hidden ones included).
 *   PATCH  /api/community/posts/:postId               owner. Body updatePostSchema (any of the
 *          create fields; only those sent change; at least one; imageUrl null removes the
 *          image, same rule as create otherwise). 200 Post with isEdited true.
 *          400; 401; 403 communityApi.errors.notOwner (another member; nothing changes);
 *          404 missing or hidden.
 *   DELETE /api/community/posts/:postId               owner. Soft delete (status hidden): gone
 *          from every list, search and the detail (404). 204. 401; 403 notOwner; 404.
 *
 * COMMENTS (a Comment is `commentSchema`; flat list, one level of replies via parentCommentId)
 *   GET    /api/community/posts/:postId/comments?page public. Published comments, oldest first,
 *          replies included (a reply always comes after its parent). 200 CommentPage
 *          (COMMENTS_PAGE_SIZE = 50). 404 when the post is missing or hidden.
 *   POST   /api/community/posts/:postId/comments     members. Body createCommentSchema
 *          {content, parentCommentId?}. A reply to a reply is attached to the top comment (one
 *          level). 201 Comment. 400 fields.content contentRequired / commentTooLong (COMMENT_MAX
 *          = 2000), fields.parentCommentId parentNotFound; 401; 404 post; 429
 *          communityApi.errors.commentRateLimited (COMMENTS_PER_HOUR = 60 a member).
 *   PATCH  /api/community/comments/:commentId         owner. Body updateCommentSchema {content}.
 *          200 Comment (isEdited true). 400; 401; 403 notOwner; 404 (commentNotFound).
 *   DELETE /api/community/comments/:commentId         owner. Soft (hidden); hiding a top comment
 *          hides its replies too; the post's commentCount drops accordingly. 204. 401; 403; 404.
 *
 * REACTIONS (likes; one per member and item; idempotent; members only)
 *   PUT    /api/community/posts/:postId/like          like.   200 ReactionState {liked: true,  likeCount}
 *   DELETE /api/community/posts/:postId/like          unlike. 200 ReactionState {liked: false, likeCount}
 *   PUT    /api/community/comments/:commentId/like    like a comment.   200 ReactionState
 *   DELETE /api/community/comments/:commentId/like    unlike a comment. 200 ReactionState
 *          401 for visitors (the UI sends them to sign in); 404 missing or hidden.
 *
 * LIVE (realtime service, src/web/lib/realtime.ts): subscribe to topic `post:<postId>` (members;
 *   allowed for anyone who may read the post). Events on it:
 *   {type: 'community.comment', postId, commentId, action: 'created'|'updated'|'hidden', commentCount}
 *   {type: 'community.reaction', postId, commentId: string|null, likeCount}
 *     (commentId null: the post's likes changed; otherwise that comment's)
 *   {type: 'community.post', postId, action: 'removed'|'restored'} (a moderator's decision)
 *   Events carry no text: refetch the post or its comments.
 *
 * NOTIFICATIONS (to the post's author; never for one's own actions)
 *   'community.comment'  subject {type:'comment', id: commentId}; data {postId}; link
 *     /community/posts/:postId (gone when the comment or the post is deleted)
 *   'community.reaction' subject {type:'post', id}; data {postId}; grouped by post: "Anna and 3
 *     others liked your post"; link /community/posts/:postId (gone when the post is deleted)
 *   Texts: notifications.types.community.comment / .reaction (variables actor, others).
 *
 * Text is plain text: stored as typed (control characters except line breaks and tabs removed,
 * CRLF made LF), never HTML; render it as text.
 */

// ---------- constants: limits, page sizes, timings ----------

/** Post text: at most this many characters; the counter turns orange above POST_WARN. */
export const POST_MAX = 2000;
export const POST_WARN = 1800;
export const COMMENT_MAX = 2000;
export const POST_TITLE_MAX = 200;
export const TAGS_MAX = 10;
export const TAG_MAX = 30;
export const POPULAR_PAGE_SIZE = 10;
export const FRIENDS_POSTS_PAGE_SIZE = 50;
export const POSTS_PAGE_SIZE = 20;
export const SEARCH_PAGE_SIZE = POSTS_PAGE_SIZE;
export const COMMENTS_PAGE_SIZE = 50;
/** Posts admins may pin at once: first in the popular tab, whatever their age. */
export const PINNED_MAX = 3;
/** Popular: posts of the last this many days. */
export const POPULAR_WINDOW_DAYS = 7;
/** Per member and rolling hour, counted in the database (every server process agrees). */
export const POSTS_PER_HOUR = 10;
export const COMMENTS_PER_HOUR = 60;
/** The create-post book search (/api/catalogue/search): 2 characters, a 300 ms pause, 10 hits. */
export const BOOK_SEARCH_MIN_CHARS = 2;
export const BOOK_SEARCH_DEBOUNCE_MS = 300;
export const BOOK_SEARCH_RESULTS = 10;
export const SEARCH_MIN_CHARS = 2;
export const SEARCH_MAX_CHARS = 100;

export const POST_TYPES = ['discussion', 'review', 'recommendation', 'question'] as const;
export type PostType = (typeof POST_TYPES)[number];
/** 'hidden': deleted by its author; 'removed': hidden by a moderator (only admins see it). */
export const POST_STATUSES = ['published', 'hidden', 'removed'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/** Topic kind of a post's live events: `post:<postId>`. */
export const POST_TOPIC_KIND = 'post';
export const postTopic = (postId: string) => `${POST_TOPIC_KIND}:${postId}`;

// ---------- text ----------

// C0 and C1 control characters except tab (\t) and line feed (\n); \r is dropped after CRLF → LF.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/** Plain text as stored: CRLF/CR → LF, control characters removed, trimmed by the schemas. */
export function cleanText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(CONTROL_CHARS, '');
}

/** A string cleaned of control characters, then trimmed and checked by `rules`. */
const cleanString = (error: string, rules: (s: z.ZodString) => z.ZodString, description: string) =>
  z.string({ error }).meta({ description }).transform(cleanText).pipe(rules(z.string().trim()));

const postContent = () =>
  cleanString(
    'communityApi.validation.contentRequired',
    (s) =>
      s
        .min(1, { error: 'communityApi.validation.contentRequired' })
        .max(POST_MAX, { error: 'communityApi.validation.contentTooLong' }),
    `Plain text, 1 to ${POST_MAX} characters after trimming`,
  );

const commentContent = () =>
  cleanString(
    'communityApi.validation.contentRequired',
    (s) =>
      s
        .min(1, { error: 'communityApi.validation.contentRequired' })
        .max(COMMENT_MAX, { error: 'communityApi.validation.commentTooLong' }),
    `Plain text, 1 to ${COMMENT_MAX} characters after trimming`,
  );

const bookIdField = () =>
  z
    .string({ error: 'communityApi.validation.bookRequired' })
    .trim()
    .min(1, { error: 'communityApi.validation.bookRequired' })
    .max(64, { error: 'communityApi.validation.bookRequired' });

/** Empty title means none. */
const titleField = () =>
  cleanString(
    'validation.invalid',
    (s) => s.max(POST_TITLE_MAX, { error: 'communityApi.validation.titleTooLong' }),
    `At most ${POST_TITLE_MAX} characters after trimming; empty for none`,
  );

/** Tags: trimmed, a leading # dropped, empties and duplicates (case-insensitive) removed. */
const tagsField = () =>
  z
    .array(
      z
        .string({ error: 'communityApi.validation.tagInvalid' })
        .transform((s) => cleanText(s).trim().replace(/^#+/, '').trim())
        .pipe(z.string().max(TAG_MAX, { error: 'communityApi.validation.tagTooLong' })),
      { error: 'communityApi.validation.tagInvalid' },
    )
    .max(TAGS_MAX, { error: 'communityApi.validation.tooManyTags' })
    .transform((tags) => {
      const seen = new Set<string>();
      return tags.filter((t) => {
        const k = t.toLowerCase();
        if (!t || seen.has(k)) return false;
        seen.add(k);
        return true;
      });
    });

/**
 * The post's picture: the URL /api/uploads/cover answered this member (the listings' cover upload
 * pipeline: '/uploads/covers/<own user id>/<32 hex>.webp'). The server refuses any other URL with
 * 400 fields.imageUrl communityApi.validation.imageNotOwnUpload. null (PATCH) removes it.
 */
const imageUrlField = () =>
  z
    .string({ error: 'communityApi.validation.imageNotOwnUpload' })
    .trim()
    .max(300, { error: 'communityApi.validation.imageNotOwnUpload' })
    .nullable()
    .meta({
      description: "An URL from POST /api/uploads/cover (the member's own upload); null for none",
    });

/** True when `url` is one of `userId`'s uploads from the cover pipeline (nothing else is stored). */
export function isOwnUploadUrl(userId: string, url: string): boolean {
  return isOwnCoverUpload(userId, url);
}

// ---------- requests ----------

export const createPostSchema = z.object({
  bookId: bookIdField(),
  content: postContent(),
  title: titleField().optional(),
  postType: z.enum(POST_TYPES, { error: 'communityApi.validation.postTypeInvalid' }).optional(),
  tags: tagsField().optional(),
  imageUrl: imageUrlField().optional(),
});
export type CreatePostInput = z.input<typeof createPostSchema>;

/** Only the fields sent change; at least one. */
export const updatePostSchema = z
  .object({
    bookId: bookIdField().optional(),
    content: postContent().optional(),
    title: titleField().optional(),
    postType: z.enum(POST_TYPES, { error: 'communityApi.validation.postTypeInvalid' }).optional(),
    tags: tagsField().optional(),
    imageUrl: imageUrlField().optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    error: 'communityApi.validation.nothingToChange',
  });
export type UpdatePostInput = z.input<typeof updatePostSchema>;

export const createCommentSchema = z.object({
  content: commentContent(),
  parentCommentId: z
    .string({ error: 'communityApi.validation.parentNotFound' })
    .max(64, { error: 'communityApi.validation.parentNotFound' })
    .nullable()
    .optional(),
});
export type CreateCommentInput = z.input<typeof createCommentSchema>;

export const updateCommentSchema = z.object({ content: commentContent() });
export type UpdateCommentInput = z.input<typeof updateCommentSchema>;

const page = pageNumber('communityApi.validation.pageInvalid');

export const pageQuerySchema = z.object({ page });

export const searchQuerySchema = z.object({
  q: z
    .string({ error: 'communityApi.validation.queryTooShort' })
    .trim()
    .min(SEARCH_MIN_CHARS, { error: 'communityApi.validation.queryTooShort' })
    .max(SEARCH_MAX_CHARS, { error: 'communityApi.validation.queryTooLong' }),
  page,
});

// ---------- answers ----------

export const postAuthorSchema = z.object({
  id: z.string(),
  displayName: z.string(),
  username: z.string().nullable(),
  avatarUrl: z.string().nullable(),
});
export type PostAuthor = z.infer<typeof postAuthorSchema>;

export const postBookSchema = z.object({
  id: z.string(),
  title: z.string(),
  author: z.string(),
  /** Our cover route (/api/covers/:bookId), or null when the book has no cover. */
  coverImageUrl: z.string().nullable(),
  isbn: z.string().nullable(),
  /**
   * The newest available listing of this book (its page, /library/book/:id), or null when nobody
   * lists it now: the post then links to the library's search for the title.
   */
  listingId: z.string().nullable(),
});
export type PostBook = z.infer<typeof postBookSchema>;

export const postSchema = z.object({
  id: z.string(),
  /** null when the author cannot be read (closed or suspended account): 'User info unavailable'. */
  author: postAuthorSchema.nullable(),
  book: postBookSchema.nullable(),
  title: z.string().nullable(),
  content: z.string(),
  postType: z.enum(POST_TYPES),
  tags: z.array(z.string()),
  imageUrl: z.string().nullable(),
  likeCount: z.number().int(),
  commentCount: z.number().int(),
  /** False for visitors. */
  likedByMe: z.boolean(),
  /** The signed-in member wrote it (edit and delete buttons). */
  isOwner: z.boolean(),
  isPinned: z.boolean(),
  isEdited: z.boolean(),
  status: z.enum(POST_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Post = z.infer<typeof postSchema>;

export const postPageSchema = pageOf(postSchema);
export type PostPage = z.infer<typeof postPageSchema>;

export const commentSchema = z.object({
  id: z.string(),
  postId: z.string(),
  author: postAuthorSchema.nullable(),
  content: z.string(),
  /** The top comment this one answers; null for a top comment. */
  parentCommentId: z.string().nullable(),
  likeCount: z.number().int(),
  likedByMe: z.boolean(),
  isOwner: z.boolean(),
  isEdited: z.boolean(),
  status: z.enum(POST_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Comment = z.infer<typeof commentSchema>;

export const commentPageSchema = pageOf(commentSchema);
export type CommentPage = z.infer<typeof commentPageSchema>;

export const reactionStateSchema = z.object({
  liked: z.boolean(),
  likeCount: z.number().int(),
});
export type ReactionState = z.infer<typeof reactionStateSchema>;

// ---------- live events (topic post:<postId>; payloads in ../realtimeEvents.ts) ----------

/** What a post's readers hear: comments, likes, and a moderator's removal or restore. */
export type CommunityEvent = RealtimeEvent<
  'community.comment' | 'community.reaction' | 'community.post'
>;
