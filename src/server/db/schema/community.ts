import {
  boolean,
  integer,
  pgTable,
  primaryKey,
  text,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, uuidPk } from './columns';
import { memberRef } from './accounts';
import { books } from './marketplace';

/**
 * Community posts, comments and likes (migration 0013). like_count and comment_count are kept by
 * triggers; search_vector (a trigger over the post's and its book's text) is read only in raw SQL.
 */
export const communityPosts = pgTable('community_posts', {
  id: uuidPk(),
  userId: memberRef('user_id'),
  bookId: uuid('book_id').references(() => books.id, { onDelete: 'set null' }),
  title: text('title'),
  content: text('content').notNull(),
  postType: text('post_type')
    .$type<'discussion' | 'review' | 'recommendation' | 'question'>()
    .notNull()
    .default('discussion'),
  tags: text('tags').array().notNull().default([]),
  imageUrl: text('image_url'),
  likeCount: integer('like_count').notNull().default(0),
  commentCount: integer('comment_count').notNull().default(0),
  isPinned: boolean('is_pinned').notNull().default(false),
  /** When an admin pinned it (migration 0019); the feed shows the newest pins first. */
  pinnedAt: timestamptz('pinned_at'),
  isEdited: boolean('is_edited').notNull().default(false),
  /** 'hidden': deleted by its author; 'removed': hidden by a moderator (migration 0019). */
  status: text('status').$type<'published' | 'hidden' | 'removed'>().notNull().default('published'),
  createdAt: createdAt(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

export const postComments = pgTable('post_comments', {
  id: uuidPk(),
  postId: uuid('post_id')
    .notNull()
    .references(() => communityPosts.id, { onDelete: 'cascade' }),
  userId: memberRef('user_id'),
  parentCommentId: uuid('parent_comment_id').references((): AnyPgColumn => postComments.id, {
    onDelete: 'cascade',
  }),
  content: text('content').notNull(),
  likeCount: integer('like_count').notNull().default(0),
  isEdited: boolean('is_edited').notNull().default(false),
  status: text('status').$type<'published' | 'hidden' | 'removed'>().notNull().default('published'),
  /** The top comment whose removal by a moderator took this reply with it (migration 0019). */
  removedWith: uuid('removed_with'),
  createdAt: createdAt(),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

export const postReactions = pgTable(
  'post_reactions',
  {
    postId: uuid('post_id')
      .notNull()
      .references(() => communityPosts.id, { onDelete: 'cascade' }),
    userId: memberRef('user_id'),
    reaction: text('reaction').$type<'like'>().notNull().default('like'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.userId] })],
);

export const commentReactions = pgTable(
  'comment_reactions',
  {
    commentId: uuid('comment_id')
      .notNull()
      .references(() => postComments.id, { onDelete: 'cascade' }),
    userId: memberRef('user_id'),
    reaction: text('reaction').$type<'like'>().notNull().default('like'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.commentId, t.userId] })],
);
