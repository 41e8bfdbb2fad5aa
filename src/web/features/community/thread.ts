import type { Comment } from './types';

/** Top comments in order, each with its replies (one level), from the pages loaded so far. */
export function threadComments(items: Comment[]) {
  const seen = new Set<string>();
  const tops: Comment[] = [];
  const replies = new Map<string, Comment[]>();
  for (const c of items) {
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    if (c.parentCommentId && seen.has(c.parentCommentId)) {
      const list = replies.get(c.parentCommentId) ?? [];
      list.push(c);
      replies.set(c.parentCommentId, list);
    } else tops.push(c);
  }
  return { tops, replies };
}
