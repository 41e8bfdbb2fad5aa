import { describe, expect, it } from 'vitest';
import { threadComments } from './thread';
import type { Comment } from './types';

const c = (id: string, parentCommentId: string | null = null): Comment => ({
  id,
  postId: 'p',
  author: null,
  content: id,
  parentCommentId,
  likeCount: 0,
  likedByMe: false,
  isOwner: false,
  isEdited: false,
  status: 'published',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});

describe('threadComments', () => {
  it('keeps top comments in order with their replies under them', () => {
    const { tops, replies } = threadComments([
      c('a'),
      c('b'),
      c('a1', 'a'),
      c('b1', 'b'),
      c('a2', 'a'),
    ]);
    expect(tops.map((x) => x.id)).toEqual(['a', 'b']);
    expect(replies.get('a')?.map((x) => x.id)).toEqual(['a1', 'a2']);
    expect(replies.get('b')?.map((x) => x.id)).toEqual(['b1']);
  });

  it('drops a comment seen twice (pages shifted) and shows a reply whose parent is gone', () => {
    const { tops, replies } = threadComments([c('a'), c('a'), c('x1', 'x')]);
    expect(tops.map((x) => x.id)).toEqual(['a', 'x1']);
    expect(replies.size).toBe(0);
  });
});
